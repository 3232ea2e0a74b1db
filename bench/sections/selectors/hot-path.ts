import { startCountingReceiver } from "../../load/receivers/counting-receiver.ts";
import type { ObserverEndpoint } from "../../load/receivers/receivers.ts";
import { remoteWriteRequests } from "../../load/requests/agent-requests.ts";
import type { IntakeRequests } from "../../load/requests/intake-requests.ts";
import { type ConsumedRound, cpuPerDatum, runConsumedRound } from "../../load/rounds/consumed-round.ts";
import { registerSelectorObservers } from "../../load/selector-observer-client.ts";
import { fixed, markdownTable, signed } from "../../report/markdown.ts";
import type { BenchContext, BenchSection } from "../section.ts";

/*
 * What selector observers that want none of the data cost the intake and the consumer: the agents'
 * remote write requests with no selector observer, and with 100 that select other data.
 */

const observers = 100;
const distinctBodies = 8;
/** Unmeasured first: compiles the path and registers the metrics. */
const warmUpRequests = 50;
/** Requests of a round without selector observers: the agents' node_exporter bodies, 2,000 samples each. */
const requestsPerRound = 100;
/** Rounds with the selectors of other metrics, each between two without any selector observer. */
const otherMetricsRounds = 2;
const targetOverMicros = 0.1;

/** 100 selector observers that want none of the data, what sets them apart from it, and the requests of their round. */
interface IdleSelectors {
  name: string;
  match: (observer: number) => string[];
  requests: number;
}

/** Selectors of other metrics: the consumer can tell them apart by the metric's name, once per metric. */
const otherMetrics: IdleSelectors = {
  name: "other metrics",
  match: (observer) => [`bench_selectors_elsewhere_${observer}{job="node"}`],
  requests: requestsPerRound,
};

/**
 * Selectors whose name matcher takes the data's metrics and whose label matcher does not take their
 * series; fewer requests, since each of their data costs many times more, so that the round takes
 * about as long as the others.
 */
const otherLabels: IdleSelectors = {
  name: 'the data\'s metrics, another `job` (`{__name__=~"node_.+",job="elsewhere-<n>"}`)',
  match: (observer) => [`{__name__=~"node_.+",job="elsewhere-${observer}"}`],
  requests: requestsPerRound / 4,
};

interface HotPathRound extends ConsumedRound {
  /** The selector observers registered meanwhile, if any. */
  selectors: IdleSelectors | undefined;
}

async function runRound(
  bench: BenchContext,
  requests: IntakeRequests,
  selectors: IdleSelectors | undefined,
): Promise<HotPathRound> {
  const round = { selectors, ...(await runConsumedRound(bench, requests, selectors?.requests ?? requestsPerRound)) };
  bench.progress(`  ${fixed(round.accepted)} data, ${fixed(cpuPerDatum([round]), 3)} µs per datum`);
  return round;
}

/** A round with `selectors` registered, removed after. */
async function runWithSelectors(
  bench: BenchContext,
  requests: IntakeRequests,
  selectors: IdleSelectors,
  receiver: ObserverEndpoint,
): Promise<HotPathRound> {
  bench.progress(`selectors: hot path, ${observers} selector observers of ${selectors.name}`);
  const matches = Array.from({ length: observers }, (_, observer) => selectors.match(observer));
  const remove = await registerSelectorObservers(bench.serviceUrl, matches, receiver);
  try {
    return await runRound(bench, requests, selectors);
  } finally {
    await remove();
  }
}

/** The rounds in the order they run: none and other metrics' selectors in turn, none first and last; other labels' last. */
async function runRounds(bench: BenchContext, receiver: ObserverEndpoint): Promise<HotPathRound[]> {
  const { progress } = bench;
  const requests = remoteWriteRequests(distinctBodies);
  progress("selectors: hot path, warm-up");
  await runConsumedRound(bench, requests, warmUpRequests);
  const rounds: HotPathRound[] = [];
  const withNone = async () => {
    progress("selectors: hot path, no selector observer");
    rounds.push(await runRound(bench, requests, undefined));
  };
  await withNone();
  for (let round = 0; round < otherMetricsRounds; round++) {
    rounds.push(await runWithSelectors(bench, requests, otherMetrics, receiver));
    await withNone();
  }
  rounds.push(await runWithSelectors(bench, requests, otherLabels, receiver));
  return rounds;
}

/**
 * Worker CPU per datum of the intake and its consumption (the agents' remote write requests) with
 * 100 selector observers that want none of the data, against none, in the same run.
 */
export const selectorHotPathPart: BenchSection = async (bench) => {
  const { processes, targets } = bench;
  const receiver = await startCountingReceiver();
  let rounds: HotPathRound[];
  try {
    rounds = await runRounds(bench, receiver);
  } finally {
    await receiver.close();
  }
  if (receiver.tally.distinct > 0) {
    throw new Error(`the idle selector observers received ${receiver.tally.distinct} data: their selectors match`);
  }

  const roundsWith = (selectors: IdleSelectors | undefined) => rounds.filter((round) => round.selectors === selectors);
  const noneRounds = roundsWith(undefined);
  const none = cpuPerDatum(noneRounds);
  const over = (selectors: IdleSelectors) => cpuPerDatum(roundsWith(selectors)) - none;
  const noneSpread = noneRounds.map((round) => cpuPerDatum([round]));
  const met = over(otherMetrics) <= targetOverMicros;
  targets.record("selector-hot-path-cpu", {
    measured:
      `${signed(over(otherMetrics), 2)} µs (${fixed(cpuPerDatum(roundsWith(otherMetrics)), 2)} vs ${fixed(none, 2)} µs; ` +
      `rounds without any from ${fixed(Math.min(...noneSpread), 2)} to ${fixed(Math.max(...noneSpread), 2)} µs)`,
    met,
  });
  targets.annotate(
    "selector-hot-path-cpu",
    `selectors of the data's metrics and another label (not judged): ${signed(over(otherLabels), 2)} µs`,
  );
  const roundRows = rounds.map((round, index) => [
    String(index + 1),
    round.selectors === undefined ? "none" : `${observers} of ${round.selectors.name}`,
    fixed(round.accepted),
    fixed(round.errors),
    fixed(cpuPerDatum([round]), 3),
  ]);
  return [
    "Selectors on the intake's hot path: the agents' remote write requests (node_exporter's 2,000 samples each, " +
      `a few clients), ${fixed(requestsPerRound)} requests a round, with no selector observer and with ` +
      `${observers} selector observers (HTTP, TOWER/JSON) of other metrics in turn, none first and last; then ` +
      `${fixed(otherLabels.requests)} requests with ${observers} that take the data's metrics and not their \`job\` ` +
      `label; an unmeasured warm-up of ${warmUpRequests} requests first. The observers are registered before ` +
      "their round and removed after it; none of them received a datum. Worker CPU: utime + stime of " +
      `${processes.worker.describe()} from the first request until the consumer was done with the round's data ` +
      "(every queue message written was read and no count moved), ÷ data accepted. The target is judged on the " +
      "selectors of other metrics, which the consumer can rule out by the metric's name.",
    "",
    ...markdownTable(
      ["round", "selector observers", "data accepted", "errors", "Worker CPU µs per datum"],
      roundRows,
      2,
    ),
    "",
    `${observers} selector observers of other metrics: **${signed(over(otherMetrics), 2)} µs** per datum over none ` +
      `(${fixed(cpuPerDatum(roundsWith(otherMetrics)), 3)} vs ${fixed(none, 3)} µs, the rounds of each kind together; ` +
      `target ≤ ${targetOverMicros} µs: ${met ? "met" : "not met"}); the rounds without any ranged from ` +
      `${fixed(Math.min(...noneSpread), 3)} to ${fixed(Math.max(...noneSpread), 3)} µs. Of the data's metrics and ` +
      `another label: ${signed(over(otherLabels), 2)} µs per datum over none.`,
  ];
};
