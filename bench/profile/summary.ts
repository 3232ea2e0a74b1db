/*
 * Where a V8 CPU profile (the Chrome DevTools protocol's Profiler.stop result) spends its time:
 * the self time of each sampled node, summed by stage of the data path and by function.
 */

export interface CallFrame {
  functionName: string;
  /** The script; after withModulePaths, the module of the Worker's bundle. Empty for V8's built-ins. */
  url: string;
  lineNumber: number;
  scriptId?: string;
}

export interface CpuProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  /** Microseconds before each sample since the previous one. */
  timeDeltas: number[];
}

/**
 * The stage a frame's self time counts for: a stage of its own (`own`), or that of its nearest
 * caller with a stage of its own, `uncalled` where the profile's tree shows no such caller (a
 * built-in such as `fetch` or a shared helper works for whoever called it).
 */
export type Attribution = { own: string } | { uncalled: string };

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
 * The most one sample counts for. A sample counts for the time since the one before it, normally
 * one sampling interval; a long gap means the isolate's thread (or the sampler's) was not running,
 * and what the isolate did meanwhile is unknown: it is left out rather than given to the next sample.
 */
export const maxSampleMs = 10;

/** Milliseconds of self time per node id. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((nodeId, index) => {
    const ms = Math.min((profile.timeDeltas[index] ?? 0) / 1_000, maxSampleMs);
    times.set(nodeId, (times.get(nodeId) ?? 0) + ms);
  });
  return times;
}

/** Milliseconds of the profile that no sample counts for: gaps between samples beyond `maxSampleMs`. */
export function unsampledMs(profile: CpuProfile): number {
  return profile.timeDeltas.reduce((sum, micros) => sum + Math.max(micros / 1_000 - maxSampleMs, 0), 0);
}

/** Each node's caller: its parent in the tree. */
function callersOf(profile: CpuProfile): Map<number, number> {
  const callers = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) callers.set(child, node.id);
  return callers;
}

/**
 * Each node's frame, an anonymous function (a callback, mostly) named as the function around it:
 * its caller in the same module, where the tree shows it.
 */
function namedFrames(profile: CpuProfile, callers: ReadonlyMap<number, number>): Map<number, CallFrame> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const named = new Map<number, CallFrame>();
  const namedFrame = (id: number): CallFrame => {
    const known = named.get(id);
    if (known) return known;
    const frame = byId.get(id)!.callFrame;
    const caller = callers.get(id);
    const outer =
      frame.functionName === "" && frame.url !== "" && caller !== undefined ? namedFrame(caller) : undefined;
    const result = outer?.url === frame.url ? { ...frame, functionName: outer.functionName } : frame;
    named.set(id, result);
    return result;
  };
  for (const node of profile.nodes) namedFrame(node.id);
  return named;
}

/** The stage of each node id, by `attribute` and the tree of callers (see Attribution). */
function stagesOfNodes(profile: CpuProfile, attribute: (frame: CallFrame) => Attribution): Map<number, string> {
  const callerOf = callersOf(profile);
  const attributions = new Map(
    [...namedFrames(profile, callerOf)].map(([id, frame]) => [id, attribute(frame)] as const),
  );
  /** The nearest stage of its own on the way to the root, memoized: the tree is walked once. */
  const ownAbove = new Map<number, string | undefined>();
  const nearestOwn = (id: number): string | undefined => {
    if (ownAbove.has(id)) return ownAbove.get(id);
    const attribution = attributions.get(id);
    const caller = callerOf.get(id);
    const found =
      attribution && "own" in attribution ? attribution.own : caller === undefined ? undefined : nearestOwn(caller);
    ownAbove.set(id, found);
    return found;
  };
  const stages = new Map<number, string>();
  for (const [id, attribution] of attributions) {
    stages.set(id, "own" in attribution ? attribution.own : (nearestOwn(id) ?? attribution.uncalled));
  }
  return stages;
}

export interface StageTime {
  stage: string;
  ms: number;
}

/** Self time per stage (see Attribution), largest first. */
export function selfTimeByStage(profile: CpuProfile, attribute: (frame: CallFrame) => Attribution): StageTime[] {
  const stages = stagesOfNodes(profile, attribute);
  const totals = new Map<string, number>();
  for (const [nodeId, ms] of selfTimes(profile)) {
    const stage = stages.get(nodeId);
    if (stage !== undefined) totals.set(stage, (totals.get(stage) ?? 0) + ms);
  }
  return [...totals].map(([stage, ms]) => ({ stage, ms })).sort((a, b) => b.ms - a.ms);
}

export interface FunctionTime {
  functionName: string;
  /** module:line, or "–" for a built-in. */
  where: string;
  stage: string;
  ms: number;
}

/**
 * The `most` functions with the most self time, largest first, leaving out the stages in `skipped`
 * (idle time); a built-in called from several stages has a row per stage.
 */
export function selfTimeByFunction(
  profile: CpuProfile,
  attribute: (frame: CallFrame) => Attribution,
  most: number,
  skipped: ReadonlySet<string>,
): FunctionTime[] {
  const stages = stagesOfNodes(profile, attribute);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, FunctionTime>();
  for (const [nodeId, ms] of selfTimes(profile)) {
    const node = byId.get(nodeId);
    const stage = stages.get(nodeId);
    if (!node || stage === undefined || skipped.has(stage)) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url === "" ? "–" : `${url.replace(/^.*?\/?((src|node_modules)\/)/, "$1")}:${lineNumber + 1}`;
    const entry = { functionName: functionName || "(anonymous)", where, stage, ms: 0 };
    const key = JSON.stringify([entry.functionName, where, stage]);
    const total = totals.get(key) ?? entry;
    total.ms += ms;
    totals.set(key, total);
  }
  return [...totals.values()].sort((a, b) => b.ms - a.ms).slice(0, most);
}
