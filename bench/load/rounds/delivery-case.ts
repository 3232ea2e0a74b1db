import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import type { BenchProcesses, ProcessRole } from "../../runtime/process-accounting.ts";
import { cpuMeter } from "../../runtime/process-accounting.ts";
import { udpReceiveBufferDrops } from "../../runtime/udp-drops.ts";
import { measuredDatum, probeDatum } from "../line-protocol.ts";
import { LatencyHistogram } from "../receivers/latency-histogram.ts";
import { PostingTimes } from "../receivers/posting-times.ts";
import {
  type LatencyReceiver,
  type LatencyRecorder,
  type ObserverFormat,
  type Protocol,
  startLatencyReceiver,
} from "../receivers/receivers.ts";
import type { SystemUnderTest } from "../systems/system-under-test.ts";

export interface DeliveryCase {
  system: SystemUnderTest;
  protocol: Protocol;
  observers: number;
  /** A suffix for the metric name, keeping an unmeasured case (e.g. "warm-up") apart from the measured ones. */
  label?: string;
  /** Data posted per second, in requests of `dataPerRequest`. */
  rate: number;
  dataPerRequest: number;
  seconds: number;
  /** What the observers take; INFLUXDB by default (the only format both systems deliver). */
  format?: ObserverFormat;
  /** Processes whose CPU time the case reports, from the first post until the deliveries are in. */
  processes?: BenchProcesses;
  /** Called as posting begins (after the probe), e.g. to time samples from then on. */
  onPostingStarted?: () => void;
}

export interface DeliveryResult {
  /** Data the system accepted. */
  posted: number;
  /** Data in requests the system did not accept, and why. */
  rejected: number;
  rejections: Map<string, number>;
  /** The posting rate achieved; below `rate` when the bench's own process fell behind its schedule. */
  postedPerSecond: number;
  /** Data an observer received per second in steady state, on average (see steadyDeliveryRate). */
  deliveredPerSecond: number;
  /** Milliseconds from post to first arrival, over every datum and observer. */
  p50: number;
  p99: number;
  /** Accepted data an observer never received, summed over observers. */
  lost: number;
  /** UDP only, where the kernel tells: datagrams dropped on this machine for full receive buffers. */
  receiveBufferDrops: number | undefined;
  duplicates: number;
  /** How long a probe took to reach every observer before posting began (earlier backlogs draining). */
  settleSeconds: number;
  /** Failed deliveries the system reports, when data were lost and it reports them. */
  failures: string[];
  /** CPU seconds of each of the case's `processes`, from the first post until the deliveries were in. */
  cpuSeconds: Record<ProcessRole, number> | undefined;
  /** Seconds from the first post until the deliveries were in (or given up on): the span of `cpuSeconds`. */
  caseSeconds: number;
}

/** How long the bench waits: for a probe before a case, and for the last data after posting stops. */
export interface DeliveryWaits {
  settleTimeoutSeconds: number;
  /** Posting stopped and nothing arrived for this long: what has not arrived is lost. */
  quietSeconds: number;
  drainTimeoutSeconds: number;
}

/** When posting began (Date.now()) and how long it lasted. */
export interface PostingWindow {
  start: number;
  seconds: number;
}

const probeResendMs = 1_000;

/**
 * Resolves with the seconds it took until every receiver had a probe posted to `metric`. Queued
 * behind whatever was posted before, the probe shows that earlier backlogs are drained and that
 * every observer is in place. It is posted again every second, since a UDP one may be lost.
 */
export async function awaitProbe(
  system: SystemUnderTest,
  metric: string,
  receivers: readonly LatencyReceiver[],
  timeoutSeconds: number,
): Promise<number> {
  const started = Date.now();
  for (let attempt = 0; Date.now() - started < timeoutSeconds * 1000; attempt++) {
    await system.post(metric, [probeDatum(attempt)]);
    const resendAt = Date.now() + probeResendMs;
    while (Date.now() < resendAt) {
      if (receivers.every((receiver) => receiver.recorder.probes > 0)) return (Date.now() - started) / 1000;
      await sleep(20);
    }
  }
  throw new Error(`${system.name}: no probe on ${metric} reached every observer within ${timeoutSeconds} s`);
}

let drains = 0;

/** Waits until what was posted to `system` so far has gone through (one HTTP observer on a fresh metric). */
export async function drainBacklog(system: SystemUnderTest, timeoutSeconds: number): Promise<number> {
  const metric = `bench-${system.slug}-drain-${++drains}`;
  const receiver = await startLatencyReceiver("HTTP", metric, new PostingTimes(1));
  try {
    const unobserve = await system.observe(metric, [receiver]);
    try {
      return await awaitProbe(system, metric, [receiver], timeoutSeconds);
    } finally {
      await unobserve();
    }
  } finally {
    await receiver.close();
  }
}

/**
 * Open loop: request n goes out at its due time whether or not earlier ones were answered. Records
 * in `postingTimes` when each request was posted. Between requests it yields to the event loop even
 * when behind its schedule, so that the receivers' sockets are read while it catches up.
 */
export async function postOnSchedule(deliveryCase: DeliveryCase, metric: string, postingTimes: PostingTimes) {
  const { system, rate, dataPerRequest, seconds } = deliveryCase;
  const requestsPerSecond = rate / dataPerRequest;
  const requests = Math.round(requestsPerSecond * seconds);
  const rejections = new Map<string, number>();
  // Only the unanswered requests are kept, so that a long case holds no more than the requests in flight.
  const unanswered = new Set<Promise<void>>();
  const started = performance.now();
  const firstPost = Date.now();
  for (let sent = 0; sent < requests; sent++) {
    const wait = started + (sent / requestsPerSecond) * 1000 - performance.now();
    await (wait > 1 ? sleep(wait) : setImmediate());
    const now = Date.now();
    const first = postingTimes.recordRequest(now);
    const data = Array.from({ length: dataPerRequest }, (_, index) => measuredDatum(first + index, now));
    const answer = system.post(metric, data).then((refused) => {
      if (refused !== undefined) rejections.set(refused, (rejections.get(refused) ?? 0) + dataPerRequest);
    });
    unanswered.add(answer);
    // A request that failed stays in the set, for Promise.all below to report.
    void answer.then(
      () => unanswered.delete(answer),
      () => undefined,
    );
  }
  // n requests on schedule span n - 1 intervals; the last one's interval counts too.
  const postingSeconds = (performance.now() - started) / 1000 + 1 / requestsPerSecond;
  await Promise.all(unanswered);
  const rejected = [...rejections.values()].reduce((sum, count) => sum + count, 0);
  return {
    postingWindow: { start: firstPost, seconds: postingSeconds },
    posted: postingTimes.data - rejected,
    rejected,
    rejections,
    postedPerSecond: postingTimes.data / postingSeconds,
  };
}

async function awaitDeliveries(
  receivers: readonly LatencyReceiver[],
  posted: number,
  waits: DeliveryWaits,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (receivers.every((receiver) => receiver.recorder.distinct >= posted)) return;
    const lastArrival = Math.max(started, ...receivers.map((receiver) => receiver.recorder.lastArrival));
    const now = Date.now();
    if (now - lastArrival > waits.quietSeconds * 1000 || now - started > waits.drainTimeoutSeconds * 1000) return;
    await sleep(100);
  }
}

/**
 * Data an observer received per second while the system ran in steady state: the first arrivals
 * within the posting window shifted by the median latency (as ArrivalCounts counts them, per time
 * bucket), divided by the window's length, averaged over observers. It equals the posting rate when
 * the system keeps up and falls below it as a backlog builds. (Counting from the first post to the
 * last arrival instead would stay below the posting rate by the latency of the last data however
 * fast the system is.)
 */
export function steadyDeliveryRate(
  recorders: readonly LatencyRecorder[],
  postingWindow: PostingWindow,
  p50: number,
): number {
  const from = postingWindow.start + p50;
  const to = from + postingWindow.seconds * 1000;
  const inWindow = recorders.reduce((sum, recorder) => sum + recorder.arrivals.countWithin(from, to), 0);
  const perObserver = inWindow / recorders.length;
  return perObserver / postingWindow.seconds;
}

function assertReadable(system: SystemUnderTest, receivers: readonly LatencyReceiver[]): void {
  const faulty = receivers.find((receiver) => receiver.recorder.unreadable > 0);
  if (faulty) {
    const { unreadable, firstUnreadable } = faulty.recorder;
    throw new Error(`${system.name} delivered ${unreadable} unreadable lines, e.g. ${JSON.stringify(firstUnreadable)}`);
  }
}

/**
 * Posts data at `rate` to a fresh metric with `observers` receivers of `protocol` and measures, per
 * datum and observer, the time from post to first arrival.
 */
export async function runDeliveryCase(deliveryCase: DeliveryCase, waits: DeliveryWaits): Promise<DeliveryResult> {
  const { system, protocol, observers, label, format, processes } = deliveryCase;
  const metric = `bench-${system.slug}-${protocol.toLowerCase()}-${observers}${label ? `-${label}` : ""}`;
  const postingTimes = new PostingTimes(deliveryCase.dataPerRequest);
  const receivers = await Promise.all(
    Array.from({ length: observers }, () => startLatencyReceiver(protocol, metric, postingTimes, format)),
  );
  try {
    const unobserve = await system.observe(metric, receivers);
    try {
      const settleSeconds = await awaitProbe(system, metric, receivers, waits.settleTimeoutSeconds);
      const dropsBefore = protocol === "UDP" ? await udpReceiveBufferDrops() : undefined;
      const cpuSeconds = processes && cpuMeter(processes);
      const caseStarted = performance.now();
      deliveryCase.onPostingStarted?.();
      const { postingWindow, posted, rejected, rejections, postedPerSecond } = await postOnSchedule(
        deliveryCase,
        metric,
        postingTimes,
      );
      await awaitDeliveries(receivers, posted, waits);
      const cpu = cpuSeconds?.();
      const caseSeconds = (performance.now() - caseStarted) / 1000;
      const dropsAfter = dropsBefore === undefined ? undefined : await udpReceiveBufferDrops();
      assertReadable(system, receivers);
      const recorders = receivers.map((receiver) => receiver.recorder);
      const lost = recorders.reduce((sum, recorder) => sum + Math.max(0, posted - recorder.distinct), 0);
      const failures = lost > 0 ? ((await system.deliveryFailures?.(metric)) ?? []) : [];
      const latencies = LatencyHistogram.combined(recorders.map((recorder) => recorder.latencies));
      const p50 = latencies.percentile(0.5);
      return {
        posted,
        rejected,
        rejections,
        postedPerSecond,
        deliveredPerSecond: latencies.count === 0 ? 0 : steadyDeliveryRate(recorders, postingWindow, p50),
        p50,
        p99: latencies.percentile(0.99),
        lost,
        receiveBufferDrops:
          dropsBefore === undefined || dropsAfter === undefined ? undefined : dropsAfter - dropsBefore,
        duplicates: recorders.reduce((sum, recorder) => sum + recorder.duplicates, 0),
        settleSeconds,
        failures,
        cpuSeconds: cpu,
        caseSeconds,
      };
    } finally {
      await unobserve();
    }
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
}
