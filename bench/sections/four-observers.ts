import { type DeliveryWaits, runDeliveryCase } from "../load/rounds/delivery-case.ts";
import { deliveryFigureCells, deliveryFigureColumns, perDelivery } from "../report/delivery-figures.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import type { BenchSection } from "./section.ts";

const observers = 4;
const dataPerRequest = 1_000;
/** The target: data/s each observer receives, with its p99 latency and no datum lost. */
const targetPerObserver = 160_000;
const targetP99Ms = 1_000;
/** An unmeasured case of the same shape first, so that the measured one does not carry the compiling of the path. */
const warmUpSeconds = 2;
/**
 * At least this many data posted: enough for the throughput sustained over many batches to show,
 * where a short case is dominated by its first batch's wait.
 */
const minimumData = 300_000;
/** A system that falls behind drains its backlog after posting stops: allow for it before calling data lost. */
const waits: DeliveryWaits = { settleTimeoutSeconds: 120, quietSeconds: 10, drainTimeoutSeconds: 180 };

/**
 * The delivery target's case: one metric, four HTTP observers in TOWER/JSON, data posted in
 * 1,000-datum requests by an open loop above the target rate; delivered data/s per observer,
 * latency, losses, and the Worker's CPU time per datum-delivery.
 */
export const fourObserversSection: BenchSection = async ({ settings, towerEdge, processes, targets, progress }) => {
  const rate = settings.fourObserversRate;
  const seconds = Math.max(settings.seconds, minimumData / rate);
  const deliveryCase = {
    system: towerEdge,
    protocol: "HTTP",
    observers,
    format: "TOWER/JSON",
    rate,
    dataPerRequest,
    processes,
  } as const;
  progress("four observers: warm-up");
  await runDeliveryCase({ ...deliveryCase, label: "tower-json-warm-up", seconds: warmUpSeconds }, waits);
  progress(`four observers: ${fixed(rate)} data/s to ${observers} HTTP observers in TOWER/JSON`);
  const result = await runDeliveryCase({ ...deliveryCase, label: "tower-json", seconds }, waits);
  for (const [reason, data] of result.rejections) progress(`  ${fixed(data)} data refused: ${reason}`);
  for (const failure of result.failures) progress(`  ${failure}`);
  const cpu = result.cpuSeconds;
  // From the first post until the last delivery: the case's wall time, for CPU in cores.
  const caseSeconds = result.caseSeconds;
  const workerPerDelivery = cpu === undefined ? Number.NaN : (cpu.worker * 1e6) / (result.posted * observers);
  // The first batch's wait and the last data's latency included.
  const wholeCasePerSecond = (result.posted - result.lost / observers) / caseSeconds;

  const met =
    result.deliveredPerSecond >= targetPerObserver &&
    result.p99 <= targetP99Ms &&
    result.lost === 0 &&
    result.rejected === 0;
  targets.record("four-http-observers", {
    measured:
      `${fixed(result.deliveredPerSecond)} data/s per observer sustained (${fixed(wholeCasePerSecond)} over the ` +
      `whole case of ${fixed(result.posted)} data), p99 ${fixed(result.p99)} ms, ` +
      `${fixed(result.lost)} lost${result.rejected > 0 ? `, ${fixed(result.rejected)} rejected` : ""}`,
    met,
  });
  targets.record("cpu-per-delivery", {
    measured: `${fixed(workerPerDelivery, 2)} µs (intake included)`,
    met: workerPerDelivery <= 1.5,
  });
  return [
    `Four HTTP observers: an open loop posts ${fixed(rate)} data/s (10% above the target of ` +
      `${fixed(targetPerObserver)} per observer) for ${fixed(seconds, 1)} s (${fixed(result.posted)} data accepted) ` +
      `in requests of ${fixed(dataPerRequest)} to ` +
      `one metric with ${observers} HTTP observers in TOWER/JSON, whose values are the data's sequence numbers; ` +
      "delivered data/s, latency and losses as in the delivery tables above (an unmeasured " +
      `${warmUpSeconds} s case of the same shape runs first). CPU: utime + stime in /proc of ` +
      `${processes.worker.describe()} and of the bench's own process, from the first post until the deliveries ` +
      'were in ("cores": CPU seconds per second of that time); per datum-delivery: ÷ (data accepted × observers), ' +
      "taking the data in included.",
    "",
    ...markdownTable(
      [...deliveryFigureColumns, "Worker CPU, cores", "Worker CPU µs per datum-delivery", "bench CPU, cores"],
      [
        [
          ...deliveryFigureCells(rate, result),
          cpu === undefined ? "–" : fixed(cpu.worker / caseSeconds, 2),
          perDelivery(cpu?.worker, result, observers),
          cpu === undefined ? "–" : fixed(cpu.bench / caseSeconds, 2),
        ],
      ],
      0,
    ),
    "",
    `Each of ${observers} HTTP observers (TOWER/JSON, requests of ${fixed(dataPerRequest)}): ` +
      `**${fixed(result.deliveredPerSecond)}** data/s sustained, ${fixed(wholeCasePerSecond)} data/s over the whole ` +
      `case (from the first post to the last delivery), p99 ${fixed(result.p99)} ms, ${fixed(result.lost)} lost ` +
      `(target ≥ ${fixed(targetPerObserver)}, p99 ≤ ${fixed(targetP99Ms)} ms, 0 lost: ${met ? "met" : "not met"})` +
      (result.duplicates > 0 ? `; ${fixed(result.duplicates)} data arrived twice` : "") +
      [...result.rejections].map(([reason, data]) => `; ${fixed(data)} data refused: ${reason}`).join("") +
      ".",
  ];
};
