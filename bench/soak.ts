import { type DeliveryWaits, runDeliveryCase } from "./delivery.ts";
import { perDelivery } from "./delivery-report.ts";
import { fixed, markdownTable } from "./markdown.ts";
import type { BenchSection, ProcessRole } from "./section.ts";

const dataPerRequest = 1_000;
/** Posting at the soak's rate before the first memory reading: JIT, caches and pools settle meanwhile. */
const warmUpSeconds = 20;
/** Readings for the slope every few seconds; the table shows every 30 s of them. */
const sampleEverySeconds = 5;
const reportEverySeconds = 30;
/** The target: the Worker runtime's resident memory grows less than this over the soak, after the warm-up. */
const targetGrowthPercent = 10;
const waits: DeliveryWaits = { settleTimeoutSeconds: 120, quietSeconds: 10, drainTimeoutSeconds: 120 };
const megabyte = 1e6;

const roles: readonly ProcessRole[] = ["worker", "relay", "bench"];

/** Resident bytes of each process group, `at` seconds after posting began (planned for `planned`). */
interface Reading {
  planned: number;
  at: number;
  bytes: Record<ProcessRole, number>;
}

/** The least-squares slope of bytes over seconds, in bytes/s (NaN for fewer than two readings). */
export function slope(points: readonly { at: number; value: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const meanAt = points.reduce((sum, point) => sum + point.at, 0) / points.length;
  const meanValue = points.reduce((sum, point) => sum + point.value, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const { at, value } of points) {
    covariance += (at - meanAt) * (value - meanValue);
    variance += (at - meanAt) ** 2;
  }
  return covariance / variance;
}

/** Seconds after posting began at which memory is read: the warm-up's end, every few seconds, and the end. */
export function readingTimes(warmUp: number, soak: number, every: number): number[] {
  const times: number[] = [];
  for (let at = warmUp; at < warmUp + soak; at += every) times.push(at);
  return [...times, warmUp + soak];
}

/**
 * Memory under sustained load: an open loop posts 1,000-datum requests to one metric with one HTTP
 * observer for the warm-up and then the soak's seconds, while the bench reads the resident memory
 * (VmRSS in /proc) of the Worker runtime, the relay and its own process.
 */
export const soakSection: BenchSection = async ({ settings, towerEdge, processes, targets, progress }) => {
  const { soakSeconds, soakRate } = settings;
  const times = readingTimes(warmUpSeconds, soakSeconds, sampleEverySeconds);
  const readings: Reading[] = [];
  const timers: NodeJS.Timeout[] = [];
  const read = (planned: number, started: number) => {
    const bytes = Object.fromEntries(roles.map((role) => [role, processes[role].residentBytes()]));
    readings.push({ planned, at: (performance.now() - started) / 1000, bytes: bytes as Record<ProcessRole, number> });
  };
  progress(
    `soak: ${fixed(soakRate)} data/s for ${warmUpSeconds} s of warm-up and ${fixed(soakSeconds)} s, reading memory`,
  );
  let result: Awaited<ReturnType<typeof runDeliveryCase>>;
  try {
    result = await runDeliveryCase(
      {
        system: towerEdge,
        protocol: "HTTP",
        observers: 1,
        label: "soak",
        rate: soakRate,
        dataPerRequest,
        seconds: warmUpSeconds + soakSeconds,
        processes,
        onPostingStarted: () => {
          const started = performance.now();
          for (const at of times) timers.push(setTimeout(() => read(at, started), at * 1000));
        },
      },
      waits,
    );
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
  if (readings.length < 2) throw new Error(`soak: ${readings.length} memory readings, expected ${times.length}`);
  const first = readings[0]!;
  const last = readings.at(-1)!;
  const growth = (role: ProcessRole) => ((last.bytes[role] - first.bytes[role]) / first.bytes[role]) * 100;
  const halfway = warmUpSeconds + soakSeconds / 2;
  const lastHalf = readings.filter((reading) => reading.at >= halfway);
  const slopeOf = (role: ProcessRole) =>
    slope(lastHalf.map((reading) => ({ at: reading.at, value: reading.bytes[role] / megabyte })));
  const shown = readings.filter(
    (reading) => reading === last || (reading.planned - warmUpSeconds) % reportEverySeconds === 0,
  );
  const megabytes = (bytes: number) => fixed(bytes / megabyte, 1);
  const workerGrowth = growth("worker");
  targets.record("soak-rss-growth", {
    measured:
      `${fixed(workerGrowth, 1)} % over ${fixed(soakSeconds)} s (${megabytes(first.bytes.worker)} → ` +
      `${megabytes(last.bytes.worker)} MB; last half ${fixed(slopeOf("worker"), 3)} MB/s)`,
    met: workerGrowth < targetGrowthPercent,
  });
  const cpu = result.cpuSeconds;
  return [
    `Soak: an open loop posts ${fixed(soakRate)} data/s in requests of ${fixed(dataPerRequest)} to one metric with ` +
      `one HTTP observer (INFLUXDB) for ${warmUpSeconds} s of warm-up and then ${fixed(soakSeconds)} s, while the ` +
      `bench reads the resident memory (VmRSS in /proc; MB of 10⁶ bytes) of the Worker runtime, ` +
      `${processes.worker.describe()}, of ${processes.relay.describe()} and of its own process every ${sampleEverySeconds} s from the ` +
      `warm-up's end (shown: every ${reportEverySeconds} s and the end). Growth: end ÷ start − 1, start being the ` +
      "warm-up's end; slope: least squares over the readings of the soak's second half. The bench keeps a record " +
      "of every datum it posted and received, so its own memory grows with the soak.",
    "",
    ...markdownTable(
      ["seconds after the warm-up", "Worker runtime MB", "relay MB", "bench MB"],
      shown.map((reading) => [
        fixed(reading.at - warmUpSeconds),
        megabytes(reading.bytes.worker),
        megabytes(reading.bytes.relay),
        megabytes(reading.bytes.bench),
      ]),
    ),
    "",
    ...markdownTable(
      ["process", "growth after warm-up %", "slope, last half MB/s"],
      [
        ["Worker runtime", fixed(workerGrowth, 1), fixed(slopeOf("worker"), 3)],
        ["relay", fixed(growth("relay"), 1), fixed(slopeOf("relay"), 3)],
        ["bench", fixed(growth("bench"), 1), fixed(slopeOf("bench"), 3)],
      ],
    ),
    "",
    `Over the whole posting: ${fixed(result.posted)} data accepted (${fixed(result.rejected)} rejected), ` +
      `${fixed(result.deliveredPerSecond)} data/s delivered, p50 ${fixed(result.p50)} ms, p99 ${fixed(result.p99)} ms, ` +
      `${fixed(result.lost)} lost; Worker CPU ${cpu === undefined ? "–" : fixed(cpu.worker / result.caseSeconds, 2)} ` +
      `cores, ${perDelivery(cpu?.worker, result, 1)} µs per datum-delivery.`,
    "",
    `Worker runtime memory over the ${fixed(soakSeconds)} s soak: **${fixed(workerGrowth, 1)} %** ` +
      `(target < ${targetGrowthPercent} %), ${fixed(slopeOf("worker"), 3)} MB/s over the last half.`,
  ];
};
