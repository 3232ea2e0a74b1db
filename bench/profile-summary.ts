/*
 * Where a V8 CPU profile (the Chrome DevTools protocol's Profiler.stop result) spends its time:
 * the self time of each sampled node, summed by function and by stage of the data path.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; scriptId?: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  /** Microseconds before each sample since the previous one. */
  timeDeltas: number[];
}

/**
 * The profile with each frame of the Worker's bundle named by the module it came from: esbuild
 * writes a `// <path>` comment before each module of an unminified bundle, so a frame's line in the
 * bundle tells its module (and its line there, roughly).
 */
export function withModulePaths(profile: CpuProfile, bundleUrl: string, bundleSource: string): CpuProfile {
  const starts: { line: number; path: string }[] = [];
  bundleSource.split("\n").forEach((text, line) => {
    const path = /^\/\/ ((?:src|node_modules|tools)\/\S+)$/.exec(text)?.[1];
    if (path) starts.push({ line, path });
  });
  const moduleAt = (line: number) => {
    let found: { line: number; path: string } | undefined;
    for (const start of starts) {
      if (start.line > line) break;
      found = start;
    }
    return found;
  };
  return {
    ...profile,
    nodes: profile.nodes.map((node) => {
      const module = node.callFrame.url === bundleUrl ? moduleAt(node.callFrame.lineNumber) : undefined;
      if (!module) return node;
      return {
        ...node,
        callFrame: { ...node.callFrame, url: module.path, lineNumber: node.callFrame.lineNumber - module.line - 1 },
      };
    }),
  };
}

/**
 * The stages, first match wins: the Worker's folders by the path of a datum, the libraries it
 * runs on, and V8's own pseudo-frames.
 */
const stagePatterns: readonly [string, RegExp][] = [
  ["idle", /^\(idle\)$/],
  ["garbage collection", /^\(garbage collector\)$/],
  ["runtime and native code", /^\((program|root)\)$/],
  ["http (auth, limits, JSON text)", /src\/(worker\/http|shared\/http)\//],
  ["intake (parse, validate, encode, queue)", /src\/worker\/intake\//],
  ["delivery (consumer, fan-out, formats, transports)", /src\/worker\/delivery\//],
  ["metrics (Durable Object: plan, record, backlog)", /src\/worker\/metrics\//],
  ["rules", /src\/worker\/rules\//],
  ["other Worker code", /src\/(worker|shared)\//],
  ["Hono", /node_modules\/hono\//],
  ["zod", /node_modules\/zod\//],
  ["other libraries", /node_modules\//],
];

function stageOf(node: CpuProfileNode): string {
  const { functionName, url } = node.callFrame;
  for (const [stage, pattern] of stagePatterns) {
    if (pattern.test(url) || pattern.test(functionName)) return stage;
  }
  // Built-ins (JSON.parse, fetch, crypto…) have no script: they count where they are named.
  return url === "" ? `built-in: ${functionName || "(anonymous)"}` : "other scripts";
}

/** Milliseconds of self time per node id. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((nodeId, index) => {
    times.set(nodeId, (times.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1_000);
  });
  return times;
}

function summed<K>(profile: CpuProfile, keyOf: (node: CpuProfileNode) => K): Map<K, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<K, number>();
  for (const [nodeId, ms] of selfTimes(profile)) {
    const node = byId.get(nodeId);
    if (!node) continue;
    const key = keyOf(node);
    totals.set(key, (totals.get(key) ?? 0) + ms);
  }
  return totals;
}

/** Self time per stage, largest first. */
export function selfTimeByStage(profile: CpuProfile): { name: string; ms: number }[] {
  return [...summed(profile, stageOf)].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** The `most` functions with the most self time, largest first. */
export function selfTimeByFunction(
  profile: CpuProfile,
  most: number,
): { functionName: string; where: string; ms: number }[] {
  const totals = summed(profile, (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*?\/?((src|node_modules)\/)/, "$1");
    return JSON.stringify([functionName || "(anonymous)", url === "" ? "–" : `${file}:${lineNumber + 1}`]);
  });
  return [...totals]
    .map(([key, ms]) => {
      const [functionName, where] = JSON.parse(key) as [string, string];
      return { functionName, where, ms };
    })
    .filter((entry) => entry.functionName !== "(idle)")
    .sort((a, b) => b.ms - a.ms)
    .slice(0, most);
}
