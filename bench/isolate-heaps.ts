import { type InspectorSession, inspectorSession, inspectorTargets } from "./inspector-session.ts";

/*
 * The V8 heaps of the isolates in a workerd, read through its inspector: the Worker's own (which
 * also runs its Durable Objects) and the local queue's (Miniflare's queue broker, which holds the
 * messages not yet consumed). workerd answers no HeapProfiler.collectGarbage, so the live heap is
 * what a heap snapshot counts: V8 collects garbage before taking one.
 */

/** The isolates whose heaps are read, by the Worker name in the inspector's title. */
export const isolateNames = { worker: "core:user:", queue: "queues:queue" } as const;
export type IsolateRole = keyof typeof isolateNames;

/** One isolate's heap: bytes in objects (garbage not yet collected included), and bytes V8 holds for the heap. */
export interface HeapUsage {
  used: number;
  total: number;
}

/** The role of an isolate from its inspector title, e.g. "workerd: worker core:user:tower-edge"; undefined for the others. */
export function isolateRole(title: string, workerName: string): IsolateRole | undefined {
  const worker = title.split(" ").at(-1);
  if (worker === `${isolateNames.worker}${workerName}`) return "worker";
  if (worker === isolateNames.queue) return "queue";
  return undefined;
}

/** The bytes of every object a V8 heap snapshot holds: the sum of the nodes' self sizes. */
export function snapshotBytes(snapshot: { snapshot: { meta: { node_fields: string[] } }; nodes: number[] }): number {
  const fields = snapshot.snapshot.meta.node_fields;
  const selfSize = fields.indexOf("self_size");
  if (selfSize === -1) throw new Error("the heap snapshot's nodes have no self_size");
  let bytes = 0;
  for (let node = selfSize; node < snapshot.nodes.length; node += fields.length) bytes += snapshot.nodes[node]!;
  return bytes;
}

export interface IsolateHeaps {
  read(): Promise<Record<IsolateRole, HeapUsage>>;
  /** The live heap of each isolate, from a heap snapshot (which collects its garbage first). */
  live(): Promise<Record<IsolateRole, number>>;
  close(): void;
}

async function liveBytes(session: InspectorSession): Promise<number> {
  const chunks: string[] = [];
  const stop = session.onEvent((method, params) => {
    if (method === "HeapProfiler.addHeapSnapshotChunk") chunks.push((params as { chunk: string }).chunk);
  });
  try {
    await session.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  } finally {
    stop();
  }
  return snapshotBytes(JSON.parse(chunks.join("")));
}

/** Connects to the isolates of Worker `workerName` in the workerd whose inspector listens on `inspectorPort`. */
export async function connectIsolateHeaps(inspectorPort: number, workerName: string): Promise<IsolateHeaps> {
  const sessions = new Map<IsolateRole, InspectorSession>();
  for (const target of await inspectorTargets(inspectorPort)) {
    const role = isolateRole(target.title, workerName);
    if (role !== undefined) sessions.set(role, await inspectorSession(target));
  }
  const close = () => {
    for (const session of sessions.values()) session.close();
  };
  const missing = (Object.keys(isolateNames) as IsolateRole[]).filter((role) => !sessions.has(role));
  if (missing.length > 0) {
    close();
    throw new Error(`workerd's inspector lists no isolate for ${missing.join(", ")}`);
  }
  const each = async <T>(measure: (session: InspectorSession) => Promise<T>) => {
    const entries = [...sessions].map(async ([role, session]) => [role, await measure(session)] as const);
    return Object.fromEntries(await Promise.all(entries)) as Record<IsolateRole, T>;
  };
  return {
    read: () =>
      each(async (session) => {
        const { usedSize, totalSize } = await session.call<{ usedSize: number; totalSize: number }>(
          "Runtime.getHeapUsage",
        );
        return { used: usedSize, total: totalSize };
      }),
    live: () => each(liveBytes),
    close,
  };
}
