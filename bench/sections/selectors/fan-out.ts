import { setTimeout as sleep } from "node:timers/promises";
import { readConfig } from "../../../src/worker/config.ts";
import { startCountingReceiver } from "../../load/receivers/counting-receiver.ts";
import { remoteWriteSamples } from "../../load/requests/agent-batches.ts";
import { sequencedRemoteWrite } from "../../load/requests/sequenced-remote-write.ts";
import { quietSeconds } from "../../load/rounds/awaited-arrivals.ts";
import { cpuPerDatum, roundClients, runConsumedRound } from "../../load/rounds/consumed-round.ts";
import {
  combinedRounds,
  cpuPerDelivery,
  type FanOutCase,
  type FanOutFigures,
  kernelPerDelivery,
  lost,
  runFanOutRound,
  steadyRate,
  wholeCaseRate,
} from "../../load/rounds/fan-out-round.ts";
import { calibrationReads, meterHandOver } from "../../load/rounds/leased-hand-over.ts";
import { registerSelectorObserver, removeSelectorObserver } from "../../load/selector-observer-client.ts";
import { fixed, markdownTable, signed } from "../../report/markdown.ts";
import type { BenchContext, BenchSection } from "../section.ts";
import { fanOutProfileLines, profileFanOutCases } from "./fan-out-profile.ts";

/*
 * One selector observer following 1,000 metrics beside one per-metric observer of one metric: the
 * same remote write requests but for the metric names, in the same run, to receivers that count
 * what they get datum by datum.
 */

const followedMetrics = 1_000;
const seriesPerMetric = remoteWriteSamples / followedMetrics;
const oneMetric = "bench_selectors_one_metric";
const fanOutPrefix = "bench_selectors_fan_out_";
const fanOutMatch = `{__name__=~"${fanOutPrefix}.+"}`;
/** Requests of 2,000 samples each round posts; every body once, so that each datum is told by its value. */
const requestsPerRound = 100;
/** The two cases take turns, round after round, so that the drift of a shared machine weighs on both alike. */
const rounds = 4;
/**
 * Unmeasured first, in turns of this many requests: compiles the path and registers the 1,000
 * metrics, which are known from then on; the second turn's batch reads the metrics' summary shards'
 * plan epochs, so that the plans their objects lease from then on are trusted (see plan-cache.ts).
 */
const warmUpRequests = 10;
const warmUpTurns = 2;
const targetCpuOverMicros = 0.2;
const targetRateShare = 0.8;
/** How long the Worker's metrics lease their plans: its default, as the bench runs it. */
const leaseMs = readConfig({}).PLAN_LEASE_MS;

/**
 * Both cases, registered, warmed up and measured in turns; then, for the selector case, what its
 * metrics' plan leases cost once they ended: the hand-over of the data consumed under them (until
 * the summary counts all `fanOutAcceptedBefore` data of the metrics accepted before the
 * observers were registered and every one since), and their renewal, a round after the hand-over
 * less that round's data at the measured rounds' cost. The observers are removed after.
 */
async function measureCases(
  bench: BenchContext,
  perMetric: FanOutCase,
  selector: FanOutCase,
  fanOutAcceptedBefore: number,
) {
  const { serviceUrl, towerEdge, progress } = bench;
  const unobserve = await towerEdge.observe(oneMetric, [perMetric.receiver]);
  const selectorId = await registerSelectorObserver(serviceUrl, [fanOutMatch], selector.receiver);
  try {
    let leasedAt = 0;
    let selectorWarmUpAccepted = 0;
    for (let turn = 1; turn <= warmUpTurns; turn++) {
      for (const fanOutCase of [perMetric, selector]) {
        progress(`selectors: warm-up ${turn} of ${warmUpTurns}, ${fanOutCase.name}`);
        if (fanOutCase === selector) leasedAt = performance.now();
        const { accepted } = await runFanOutRound(bench, fanOutCase, warmUpRequests);
        if (fanOutCase === selector) selectorWarmUpAccepted += accepted;
      }
    }
    const measured = new Map<FanOutCase, FanOutFigures[]>([
      [perMetric, []],
      [selector, []],
    ]);
    for (let round = 1; round <= rounds; round++) {
      for (const [fanOutCase, figures] of measured) {
        progress(`selectors: ${fanOutCase.name}, round ${round} of ${rounds}`);
        const roundFigures = await runFanOutRound(bench, fanOutCase, requestsPerRound);
        progress(
          `  ${fixed(roundFigures.delivered)} of ${fixed(roundFigures.accepted)} data delivered, ` +
            `${fixed(steadyRate(roundFigures))} data/s steady, ` +
            `${fixed(cpuPerDelivery(roundFigures), 2)} µs per datum-delivery`,
        );
        figures.push(roundFigures);
      }
    }
    const leasedFor = performance.now() - leasedAt;
    // A lease that ended during the rounds would have put its hand-over and renewal in them.
    if (leasedFor >= leaseMs) throw new Error(`the rounds took ${fixed(leasedFor)} ms, past the leases' end`);
    progress(`selectors: the rounds ended ${fixed(leasedFor)} ms after the leases were asked for`);
    const perMetricFigures = combinedRounds(measured.get(perMetric)!);
    const selectorFigures = combinedRounds(measured.get(selector)!);
    progress("selectors: the hand-over of the leased data, once the leases ended");
    const everyFanOutDatum = fanOutAcceptedBefore + selectorWarmUpAccepted + selectorFigures.accepted;
    const handOver = await meterHandOver(bench, fanOutPrefix, everyFanOutDatum, leasedAt, leaseMs);
    progress("selectors: a round that renews the leases");
    const renewalRound = await runFanOutRound(bench, selector, requestsPerRound);
    const renewalCpu = renewalRound.cpu.worker - (cpuPerDelivery(selectorFigures) / 1e6) * renewalRound.accepted;
    return { perMetricFigures, selectorFigures, handOver, renewalCpu };
  } finally {
    await removeSelectorObserver(serviceUrl, selectorId);
    await unobserve();
  }
}

/**
 * Fan-out through one selector observer following 1,000 metrics beside one per-metric observer of
 * one metric, fed the same number of data by Prometheus remote write: Worker CPU per
 * datum-delivery, sustained data/s and data lost; and, for what bounds them, the same 1,000
 * metrics' data with no observer at all.
 */
export const selectorFanOutPart: BenchSection = async (bench) => {
  const { processes, targets, progress } = bench;
  progress("selectors: building the remote write requests");
  const receivers = [await startCountingReceiver(), await startCountingReceiver()] as const;
  try {
    const perMetric: FanOutCase = {
      name: "one per-metric observer, 1 metric",
      requests: sequencedRemoteWrite(requestsPerRound, remoteWriteSamples, () => oneMetric),
      receiver: receivers[0],
    };
    const selector: FanOutCase = {
      name: `one selector observer, ${fixed(followedMetrics)} metrics`,
      requests: sequencedRemoteWrite(
        requestsPerRound,
        remoteWriteSamples,
        (series) => `${fanOutPrefix}${String(Math.floor(series / seriesPerMetric)).padStart(4, "0")}`,
      ),
      receiver: receivers[1],
    };
    // Building the bodies held this process's event loop for seconds: a turn of it lets the HTTP
    // client see the kept-alive connections the Worker closed meanwhile before a request goes out on one.
    await sleep(100);
    progress(`selectors: ${fixed(followedMetrics)} metrics, no observer`);
    const unobservedWarmUp = await runConsumedRound(bench, selector.requests, warmUpRequests);
    const unobserved = await runConsumedRound(bench, selector.requests, requestsPerRound);
    const { perMetricFigures, selectorFigures, handOver, renewalCpu } = await measureCases(
      bench,
      perMetric,
      selector,
      unobservedWarmUp.accepted + unobserved.accepted,
    );
    const profiles = await profileFanOutCases(
      bench,
      { perMetric, oneMetric, selector, match: fanOutMatch },
      { warmUpRequests, warmUpTurns, requests: requestsPerRound },
    );
    const unreadable = perMetricFigures.unreadable + selectorFigures.unreadable;
    if (unreadable > 0) throw new Error(`the receivers got ${unreadable} unreadable payloads or data`);
    // A lease's costs are paid once per lease, by the data that flow meanwhile: at the rounds' rate, a lease's worth.
    const dataPerLease = (steadyRate(selectorFigures) * leaseMs) / 1000;
    const handOverCpu = handOver.cpu.worker;
    const leaseMicros = ((handOverCpu + renewalCpu) * 1e6) / dataPerLease;
    const selectorCpu = cpuPerDelivery(selectorFigures) + leaseMicros;

    const cpuOver = selectorCpu - cpuPerDelivery(perMetricFigures);
    const rateShare = steadyRate(selectorFigures) / steadyRate(perMetricFigures);
    const lostData = lost(selectorFigures) + lost(perMetricFigures);
    const cpuMet = cpuOver <= targetCpuOverMicros;
    const rateMet = rateShare >= targetRateShare && lostData === 0;
    targets.record("selector-fan-out-cpu", {
      measured:
        `${fixed(selectorCpu, 2)} µs vs ${fixed(cpuPerDelivery(perMetricFigures), 2)} µs: ` +
        `${signed(cpuOver, 2)} µs (intake and the plan leases' own costs included; the same 1,000 metrics with no observer ` +
        `${fixed(cpuPerDatum([unobserved]), 2)} µs per datum)`,
      met: cpuMet,
    });
    targets.record("selector-fan-out-rate", {
      measured:
        `${fixed(rateShare, 2)} (${fixed(steadyRate(selectorFigures))} ÷ ${fixed(steadyRate(perMetricFigures))} ` +
        `data/s); lost ${fixed(lost(selectorFigures))} and ${fixed(lost(perMetricFigures))}`,
      met: rateMet,
    });
    const row = (fanOutCase: FanOutCase, figures: FanOutFigures) => [
      fanOutCase.name,
      fixed(figures.accepted),
      fixed(figures.refused),
      fixed(figures.delivered),
      fixed(lost(figures)),
      fixed(figures.duplicates),
      fixed(steadyRate(figures)),
      fixed(wholeCaseRate(figures)),
      fixed(figures.cpu.worker / figures.caseSeconds, 2),
      fixed(cpuPerDelivery(figures), 2),
      fixed(kernelPerDelivery(figures), 2),
      fixed(figures.cpu.bench / figures.caseSeconds, 2),
    ];
    const unobservedRow = [
      `no observer, ${fixed(followedMetrics)} metrics`,
      fixed(unobserved.accepted),
      fixed(unobserved.errors * remoteWriteSamples),
      ...Array.from({ length: 6 }, () => "–"),
      fixed(cpuPerDatum([unobserved]), 2),
      "–",
      "–",
    ];
    return [
      `Fan-out through a selector observer: the same Prometheus remote write requests (${fixed(remoteWriteSamples)} ` +
        "single-sample series each, snappy, the sample values the data's sequence numbers) posted by a closed loop " +
        `of ${roundClients} clients, once to one metric with one per-metric observer, once spread over ` +
        `${fixed(followedMetrics)} metrics (${seriesPerMetric} series each) that one selector observer follows ` +
        `(\`${fanOutMatch}\`); both observers HTTP in TOWER/JSON, to receivers that answer at once and count each ` +
        `datum by its value. The cases take turns over ${rounds} rounds of ${fixed(requestsPerRound)} requests ` +
        `(${fixed(requestsPerRound * remoteWriteSamples)} data) each, after an unmeasured warm-up of ` +
        `${warmUpTurns} turns of ${warmUpRequests} requests each (the second lets the 1,000 metrics' objects ` +
        "lease their plans to the consumer, which then reads their summary shards' plan epochs instead of " +
        `asking them; a lease lasts PLAN_LEASE_MS, ${fixed(leaseMs / 1000)} s by default, longer than the measured ` +
        "rounds). " +
        "Sustained data/s: the data received between the arrivals that passed " +
        "10 % and 90 % of a round's, over the time between them (the first batch's wait and the last data's tail " +
        "left out); over the whole case: from the first post to the last arrival. Lost: accepted data the " +
        `receiver had not got when nothing more came for ${quietSeconds} s. Worker CPU: utime + stime of ` +
        `${processes.worker.describe()} from the first post until the last datum arrived, ÷ data accepted (one ` +
        "observer: per datum-delivery), taking the data in included, as in the four-observers case; of it, the " +
        "system time (the kernel's: sockets, disk writes of the Durable Objects' storage). A lease's " +
        "own costs come once per lease and metric, after the rounds: the hand-over of the data consumed under " +
        "it to the metric's object, through its summary shard (the CPU from a second before the leases ended " +
        "until the summary counted every datum, less what the bench's reads of the summary meanwhile cost, " +
        `at the cost of each of ${calibrationReads} reads made before), and its renewal, a plan request per metric ` +
        "(a round after the hand-over, less its data at the measured rounds' cost); they are spread over the data a lease's time " +
        "carries at the rounds' sustained rate, and added to the selector case. Before the " +
        "observers were " +
        `registered, the ${fixed(followedMetrics)} metrics' requests went through once with no observer at all ` +
        "(its CPU until the consumer was done with them): what spreading the data over that many metrics costs by " +
        "itself, each metric's object being asked for its plan in every batch that holds its data.",
      "",
      ...markdownTable(
        [
          "case",
          "data accepted",
          "refused",
          "delivered",
          "lost",
          "duplicates",
          "sustained data/s",
          "data/s over the whole case",
          "Worker CPU, cores",
          "Worker CPU µs per datum-delivery",
          "of which in the kernel",
          "bench CPU, cores",
        ],
        [row(perMetric, perMetricFigures), row(selector, selectorFigures), unobservedRow],
      ),
      "",
      `What the selector case's ${fixed(followedMetrics)} plan leases cost once they ended: the hand-over of the ` +
        `data consumed under them ${fixed(handOverCpu, 2)} s of Worker CPU (less ${fixed(handOver.reads)} reads of ` +
        `the summary at ${fixed(handOver.readCpu.worker * 1000, 1)} ms each), their renewal ${fixed(renewalCpu, 2)} s ` +
        `(a round after the hand-over, less its data at the measured rounds' cost); a lease lasts ` +
        `${fixed(leaseMs / 1000)} s, in which ${fixed(dataPerLease)} data flow at the rounds' sustained rate: ` +
        `${fixed(leaseMicros, 2)} µs per datum. With it, the selector case costs ${fixed(selectorCpu, 2)} µs per ` +
        "datum-delivery.",
      "",
      `Selector observer over per-metric observer: Worker CPU per datum-delivery **${signed(cpuOver, 2)} µs** ` +
        `(target ≤ +${targetCpuOverMicros} µs: ${cpuMet ? "met" : "not met"}; over the same metrics with no ` +
        `observer ${signed(selectorCpu - cpuPerDatum([unobserved]), 2)} µs), sustained data/s ` +
        `**${fixed(rateShare, 2)}** × (target ≥ ${targetRateShare}), ${fixed(lostData)} lost (target 0; with the ` +
        `rate: ${rateMet ? "met" : "not met"}).`,
      "",
      ...fanOutProfileLines(profiles, { perMetric: perMetric.name, selector: selector.name }),
    ];
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
};
