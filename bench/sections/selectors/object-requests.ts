import { keptAliveAgent, send } from "../../load/http-client.ts";
import { startCountingReceiver } from "../../load/receivers/counting-receiver.ts";
import { DatumTally } from "../../load/receivers/datum-tally.ts";
import type { IntakeRequests } from "../../load/requests/intake-requests.ts";
import { sequencedRemoteWrite } from "../../load/requests/sequenced-remote-write.ts";
import { registerSelectorObserver, removeSelectorObserver } from "../../load/selector-observer-client.ts";
import { fixed, markdownTable } from "../../report/markdown.ts";
import { afterConsumer } from "../../runtime/usage.ts";
import type { BenchSection } from "../section.ts";

/*
 * The Durable Object requests a consumer batch costs, with and without one selector observer that
 * follows its metrics: the observer's object's share must not grow with the metrics of the batch.
 */

const seriesPerBatch = 100;
const batchMetricCounts = [1, 100] as const;
const batchPrefix = "bench_selectors_batch_";
const batchMatch = `{__name__=~"${batchPrefix}.+"}`;
/** Batches measured of each kind, with the observer and without. */
const batchesPerKind = 3;
/** What the observer's object is expected to cost a batch: its plan and its record. */
const expectedShare = 2;

interface BatchKind {
  metrics: number;
  /** Body 0 registers the metrics; the others are measured, each a batch of its own. */
  requests: IntakeRequests;
}

/** Operations counted by the Worker for one batch. */
interface BatchCount {
  objectRequests: number;
  /** Of them, to selector observers' objects. */
  selectorObjectRequests: number;
  messagesRead: number;
}

/**
 * Posts one body alone, once the consumer is done with what came before, and counts the Durable
 * Object requests until the consumer is done with it: the request's (none, its metrics known) and
 * its batch's.
 */
async function countBatch(serviceUrl: string, requests: IntakeRequests, body: number): Promise<BatchCount> {
  const agent = keptAliveAgent(1);
  try {
    const before = await afterConsumer(serviceUrl);
    const { path, bodies, contentType, headers, expectedStatus } = requests;
    const outcome = await send(agent, new URL(`${serviceUrl}${path}`), {
      method: "POST",
      body: bodies[body],
      contentType,
      headers,
    });
    if (outcome !== expectedStatus) throw new Error(`${path} answered ${outcome}`);
    const after = await afterConsumer(serviceUrl);
    const selectorRequests = (usage: typeof before) => usage.durableObjectRequestsByBinding.SELECTOR_OBSERVER;
    return {
      objectRequests: after.durableObjectRequests - before.durableObjectRequests,
      selectorObjectRequests: selectorRequests(after) - selectorRequests(before),
      messagesRead: after.queueMessagesRead - before.queueMessagesRead,
    };
  } finally {
    agent.destroy();
  }
}

async function countBatches(serviceUrl: string, kind: BatchKind): Promise<BatchCount[]> {
  const counts: BatchCount[] = [];
  for (let body = 1; body <= batchesPerKind; body++) counts.push(await countBatch(serviceUrl, kind.requests, body));
  return counts;
}

const mean = (counts: readonly BatchCount[], pick: (count: BatchCount) => number) =>
  counts.reduce((sum, count) => sum + pick(count), 0) / counts.length;

/**
 * Durable Object requests per consumer batch of 1 and of 100 metrics (remote write, 100 series),
 * before and after one selector observer following them was registered, and its object's share,
 * which the Worker counts apart.
 */
export const selectorObjectRequestsPart: BenchSection = async ({ serviceUrl, targets, progress }) => {
  const kinds: BatchKind[] = batchMetricCounts.map((metrics) => ({
    metrics,
    requests: sequencedRemoteWrite(
      batchesPerKind + 1,
      seriesPerBatch,
      (series) => `${batchPrefix}${String(series % metrics).padStart(3, "0")}`,
    ),
  }));
  progress("selectors: Durable Object requests per batch");
  for (const kind of kinds) await countBatch(serviceUrl, kind.requests, 0);
  const without = new Map<BatchKind, BatchCount[]>();
  for (const kind of kinds) without.set(kind, await countBatches(serviceUrl, kind));
  const receiver = await startCountingReceiver();
  const withObserver = new Map<BatchKind, { counts: BatchCount[]; delivered: number }>();
  try {
    const id = await registerSelectorObserver(serviceUrl, [batchMatch], receiver);
    try {
      for (const kind of kinds) {
        receiver.tally = new DatumTally();
        const counts = await countBatches(serviceUrl, kind);
        withObserver.set(kind, { counts, delivered: receiver.tally.distinct });
      }
    } finally {
      await removeSelectorObserver(serviceUrl, id);
    }
  } finally {
    await receiver.close();
  }

  const perBatch = (counts: readonly BatchCount[]) => mean(counts, (count) => count.objectRequests);
  const share = (kind: BatchKind) => mean(withObserver.get(kind)!.counts, (count) => count.selectorObjectRequests);
  const [fewest, most] = [kinds[0]!, kinds.at(-1)!];
  const allDelivered = kinds.every((kind) => withObserver.get(kind)!.delivered === batchesPerKind * seriesPerBatch);
  const met = share(most) <= share(fewest) && allDelivered;
  targets.record("selector-object-requests", {
    measured:
      kinds
        .map((kind) => `${fixed(share(kind), 2)} per batch of ${kind.metrics} metric${kind.metrics > 1 ? "s" : ""}`)
        .join(", ") + (allDelivered ? "" : " (not every datum reached the observer)"),
    met,
  });
  const rows = kinds.map((kind) => {
    const { counts, delivered } = withObserver.get(kind)!;
    return [
      fixed(kind.metrics),
      fixed(perBatch(without.get(kind)!), 2),
      fixed(perBatch(counts), 2),
      fixed(share(kind), 2),
      fixed(
        mean(counts, (count) => count.messagesRead),
        2,
      ),
      `${fixed(delivered)} of ${fixed(batchesPerKind * seriesPerBatch)}`,
    ];
  });
  return [
    `Durable Object requests per consumer batch, counted by the Worker (GET /v1/usage): remote write requests of ` +
      `${seriesPerBatch} single-sample series, of one metric or spread over ${batchMetricCounts.at(-1)} metrics, ` +
      "each posted alone once the consumer was done with the one before, so that each makes one batch; the metrics " +
      `were registered by an unmeasured request first. ${batchesPerKind} batches of each kind without any ` +
      `observer, then ${batchesPerKind} more with one selector observer following them all (\`${batchMatch}\`, ` +
      "HTTP, TOWER/JSON). Its object's share, counted apart by the Worker (requests per Durable Object " +
      `binding), is expected to be ${expectedShare}: its plan and its record, whatever the number of metrics. ` +
      "The metrics' own objects lease their plans once only selector observers follow them: the first " +
      "batch asks them, the second asks again with their summary shards' plan epochs read first, and " +
      "the third asks only those epochs.",
    "",
    ...markdownTable(
      [
        "metrics in the batch",
        "requests per batch, no observer",
        "with the selector observer",
        "the selector observer's share",
        "queue messages per batch",
        "data the observer received",
      ],
      rows,
    ),
    "",
    `The selector observer's object: **${kinds.map((kind) => fixed(share(kind), 2)).join(" and ")}** requests per ` +
      `batch of ${kinds.map((kind) => kind.metrics).join(" and ")} metrics (target: bounded by a constant, not by ` +
      `the number of metrics: ${met ? "met" : "not met"}).`,
  ];
};
