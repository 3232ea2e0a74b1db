import { type InspectorSession, inspectorSession, inspectorTargets } from "./inspector-session.ts";

/*
 * The V8 heap of the Worker's isolate (which also runs its Durable Objects), read through workerd's
 * inspector: what holds deployed, where workerd's resident memory is mostly the emulator's own.
 * workerd answers no HeapProfiler.collectGarbage, so the live heap is what a heap snapshot counts:
 * V8 collects garbage before taking one.
 */

/** The prefix of a Worker's isolate in the inspector's titles, before the Worker's name. */
const workerIsolatePrefix = "core:user:";

/** The isolate's heap: bytes in objects (garbage not yet collected included), and bytes V8 holds for the heap. */
export interface HeapUsage {
  used: number;
  total: number;
}

/** Whether an inspector title, e.g. "workerd: worker core:user:tower-edge", is Worker `workerName`'s isolate. */
export function isWorkerIsolate(title: string, workerName: string): boolean {
  return title.split(" ").at(-1) === `${workerIsolatePrefix}${workerName}`;
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

export interface WorkerHeap {
  usage(): Promise<HeapUsage>;
  /** The live heap, from a heap snapshot (which collects the garbage first). */
  live(): Promise<number>;
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

/** Connects to the isolate of Worker `workerName` in the workerd whose inspector listens on `inspectorPort`. */
export async function connectWorkerHeap(inspectorPort: number, workerName: string): Promise<WorkerHeap> {
  const target = (await inspectorTargets(inspectorPort)).find(({ title }) => isWorkerIsolate(title, workerName));
  if (target === undefined) throw new Error(`workerd's inspector lists no isolate of the Worker ${workerName}`);
  const session = await inspectorSession(target);
  return {
    usage: async () => {
      const { usedSize, totalSize } = await session.call<{ usedSize: number; totalSize: number }>(
        "Runtime.getHeapUsage",
      );
      return { used: usedSize, total: totalSize };
    },
    live: () => liveBytes(session),
    close: () => session.close(),
  };
}
