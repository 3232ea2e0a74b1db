import { type DeliveryWaits, runDeliveryCase } from "../load/rounds/delivery-case.ts";
import { perDelivery } from "../report/delivery-figures.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import { withInspectedWorker } from "../runtime/inspected-worker.ts";
import { connectWorkerHeap, type HeapUsage } from "../runtime/isolate-heaps.ts";
import type { BenchSection } from "./section.ts";

const observers = 2;
const dataPerRequest = 1_000;
/** Posting at the soak's rate before the first memory reading: JIT, caches and pools settle meanwhile. */
const warmUpSeconds = 20;
const readEverySeconds = 30;
/** The stretch at the soak's end whose growth is judged: the whole soak when it is shorter. */
const growthWindowSeconds = 20 * 60;
/**
 * The targets: the Worker isolate's live heap stays below this all soak long (half of the 128 MB a
 * deployed Worker's isolate may hold)...
 */
const maxLiveHeapMiB = 64;
/** ...and grows less than this over the growth window. */
const maxGrowthPercent = 5;
/** The Worker as deployed: no binding of local runs only (such as the intake journal). */
const asDeployed = {};
const waits: DeliveryWaits = { settleTimeoutSeconds: 120, quietSeconds: 10, drainTimeoutSeconds: 300 };
const mebibyte = 2 ** 20;
/** The Worker's name in wrangler.toml, which names its isolate. */
const workerName = "tower-edge";

/** The Worker isolate's memory `at` seconds after posting began. */
export interface SoakReading {
  at: number;
  /** The live heap (a heap snapshot's), bytes. */
  live: number;
  /** The heap as V8 reported it just before the snapshot, garbage included. */
  heap: HeapUsage;
}

/** Seconds after posting began at which memory is read: the warm-up's end, every `every` seconds, and the end. */
export function readingTimes(warmUp: number, soak: number, every: number): number[] {
  const times: number[] = [];
  for (let at = warmUp; at < warmUp + soak; at += every) times.push(at);
  return [...times, warmUp + soak];
}

/** The least-squares line through the points: its slope and its value at `at`. */
export function leastSquares(points: readonly { at: number; value: number }[]): {
  slope: number;
  valueAt: (at: number) => number;
} {
  if (points.length < 2) return { slope: Number.NaN, valueAt: () => Number.NaN };
  const meanAt = points.reduce((sum, point) => sum + point.at, 0) / points.length;
  const meanValue = points.reduce((sum, point) => sum + point.value, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const { at, value } of points) {
    covariance += (at - meanAt) * (value - meanValue);
    variance += (at - meanAt) ** 2;
  }
  const slope = covariance / variance;
  return { slope, valueAt: (at) => meanValue + slope * (at - meanAt) };
}

/** The growth the soak judges, over the readings of its last `windowSeconds` (a reading every few seconds). */
export interface SoakGrowth {
  /** Seconds after posting began where the window starts. */
  from: number;
  to: number;
  /** The least-squares line's rise over the window ÷ its value at the window's start, in %. */
  percent: number;
  /** The largest reading of the whole soak, bytes. */
  peak: number;
}

/** The live heap's growth over the last `windowSeconds` of the readings (all of them when they span less). */
export function soakGrowth(readings: readonly SoakReading[], windowSeconds: number): SoakGrowth {
  const last = readings.at(-1);
  if (last === undefined) throw new Error("the soak has no memory reading");
  const from = Math.max(readings[0]!.at, last.at - windowSeconds);
  const line = leastSquares(
    readings.filter((reading) => reading.at >= from).map(({ at, live }) => ({ at, value: live })),
  );
  const start = line.valueAt(from);
  return {
    from,
    to: last.at,
    percent: ((line.valueAt(last.at) - start) / start) * 100,
    peak: Math.max(...readings.map((reading) => reading.live)),
  };
}

/** Whether the soak meets its targets: below `maxLiveHeapMiB` throughout, and growing less than `maxGrowthPercent`. */
export function soakMet(growth: SoakGrowth): boolean {
  return growth.peak / mebibyte < maxLiveHeapMiB && growth.percent < maxGrowthPercent;
}

const mib = (bytes: number) => fixed(bytes / mebibyte, 1);
const minutes = (seconds: number) => fixed(seconds / 60, 1);
const heapCell = ({ used, total }: HeapUsage) => `${mib(used)} / ${mib(total)}`;

/**
 * The Worker's memory under sustained load, on a Worker of its own (a fresh workerd with its
 * inspector open, configured as deployed): an open loop posts 1,000-datum requests to one metric
 * with two HTTP observers for the warm-up and then the soak's seconds, while the bench reads every
 * 30 s the live heap of the Worker's isolate; after the last delivery, once more.
 */
export const soakSection: BenchSection = async ({ settings, processes, targets, progress }) => {
  const { soakSeconds, soakRate } = settings;
  const times = readingTimes(warmUpSeconds, soakSeconds, readEverySeconds);
  progress(
    `soak: ${fixed(soakRate)} data/s to ${observers} HTTP observers for ${warmUpSeconds} s of warm-up and ` +
      `${fixed(soakSeconds)} s, reading the Worker's live heap every ${readEverySeconds} s`,
  );
  return withInspectedWorker("soak", asDeployed, async ({ system, inspectorPort, runtime }) => {
    const heap = await connectWorkerHeap(inspectorPort, workerName);
    try {
      const read = async (at: number): Promise<SoakReading> => {
        const usage = await heap.usage();
        return { at, heap: usage, live: await heap.live() };
      };
      const pending: Promise<SoakReading>[] = [];
      const timers: NodeJS.Timeout[] = [];
      let result: Awaited<ReturnType<typeof runDeliveryCase>>;
      try {
        result = await runDeliveryCase(
          {
            system,
            protocol: "HTTP",
            observers,
            label: "soak",
            rate: soakRate,
            dataPerRequest,
            seconds: warmUpSeconds + soakSeconds,
            processes: { ...processes, worker: runtime },
            onPostingStarted: () => {
              const started = performance.now();
              for (const at of times) {
                timers.push(
                  setTimeout(() => {
                    const reading = read((performance.now() - started) / 1000);
                    pending.push(reading);
                    void reading.then((done) =>
                      progress(`  soak: ${fixed(done.at)} s, live heap ${mib(done.live)} MiB`),
                    );
                  }, at * 1000),
                );
              }
            },
          },
          waits,
        );
      } finally {
        for (const timer of timers) clearTimeout(timer);
      }
      const readings = await Promise.all(pending);
      if (readings.length < 2) throw new Error(`soak: ${readings.length} memory readings, expected ${times.length}`);
      const drained = await read(Number.NaN);
      const growth = soakGrowth(readings, growthWindowSeconds);
      const met = soakMet(growth);
      targets.record("soak-live-heap", {
        measured:
          `peak ${mib(growth.peak)} MiB, ${fixed(growth.percent, 1)} % over minutes ${minutes(growth.from - warmUpSeconds)}` +
          `–${minutes(growth.to - warmUpSeconds)} of a ${minutes(soakSeconds)}-minute soak`,
        met,
      });
      const cpu = result.cpuSeconds;
      return [
        `Soak: on a Worker of its own (a fresh workerd, ${runtime.describe()}, its inspector open, configured as ` +
          "deployed), an open loop " +
          `posts ${fixed(soakRate)} data/s in requests of ${fixed(dataPerRequest)} to one metric with ${observers} HTTP ` +
          `observers (INFLUXDB) for ${warmUpSeconds} s of warm-up and then ${fixed(soakSeconds)} s. Every ` +
          `${readEverySeconds} s from the warm-up's end the bench reads, through the inspector, the V8 heap of the ` +
          "Worker's isolate (which runs its Durable Objects too): the bytes in objects and those V8 holds for the " +
          "heap, garbage not yet collected included, and then the live heap, the bytes a heap snapshot finds (V8 " +
          "collects the garbage first; the isolate pauses meanwhile, which the latencies below include). The " +
          "emulator's own memory (workerd's resident size, the local queue's isolate) is not the Worker's and is " +
          "not read. MiB of 2²⁰ bytes.",
        "",
        ...markdownTable(
          ["minutes after the warm-up", "Worker heap used / held MiB", "Worker live heap MiB"],
          [...readings, drained].map((reading) => [
            Number.isNaN(reading.at) ? "after the last delivery" : minutes(reading.at - warmUpSeconds),
            heapCell(reading.heap),
            mib(reading.live),
          ]),
        ),
        "",
        `Over the whole posting: ${fixed(result.postedPerSecond)} data/s posted, ${fixed(result.posted)} data ` +
          `accepted (${fixed(result.rejected)} rejected), ` +
          `${fixed(result.deliveredPerSecond)} data/s delivered to each observer, p50 ${fixed(result.p50)} ms, ` +
          `p99 ${fixed(result.p99)} ms, ${fixed(result.lost)} lost, ${fixed(result.duplicates)} delivered twice; ` +
          `Worker CPU ${cpu === undefined ? "–" : fixed(cpu.worker / result.caseSeconds, 2)} cores, ` +
          `${perDelivery(cpu?.worker, result, observers)} µs per datum-delivery.`,
        "",
        `The Worker's live heap over minutes ${minutes(growth.from - warmUpSeconds)}–${minutes(growth.to - warmUpSeconds)} ` +
          `after the warm-up (the last ${fixed(growthWindowSeconds / 60)} minutes, or the whole soak when shorter): ` +
          `**${fixed(growth.percent, 1)} %** (the least-squares line's rise ÷ its start), peak **${mib(growth.peak)} MiB**; ` +
          `target < ${maxGrowthPercent} % and < ${maxLiveHeapMiB} MiB: ${met ? "met" : "**not met**"}.`,
      ];
    } finally {
      heap.close();
    }
  });
};
