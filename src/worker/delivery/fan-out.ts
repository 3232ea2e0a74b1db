import { packBatches } from "../../shared/bounded-batches";
import type { Config } from "../config";
import { metricStub } from "../metrics/metric-object";
import { currentModel } from "../observers/model-selection/model-view-cache";
import { selectorObserverStub } from "../observers/selector-observer-object";
import { feedRules } from "../rules/rule-feed";
import type { FedMessage } from "../rules/rule-object";
import { intakeOfRows } from "../summary/leased-intake";
import { readPlanEpochs } from "../summary/plan-epoch-requests";
import { shardOfKey } from "../summary/shard-key";
import { noteLeasedIntake, noteMetricFigures, noteObserverSnapshots } from "../summary/summary-outbox";
import type { DatumRow } from "../vocabulary/datum";
import {
  type BatchReport,
  type Delivery,
  type DeliveryResult,
  type MetricPlan,
  type MetricRun,
  maxDataPerPayload,
  newWebhookId,
  type ObserverPlan,
  type OwedData,
  type SelectorEntry,
} from "../vocabulary/delivery";
import { reportAttempt } from "./attempt-report";
import { metricDataOfRuns, type RowChains, runsData, slicesOfRuns, viaOfRuns } from "./metric-runs";
import { planCache } from "./plan-cache";
import { selectBatch } from "./selector-matching";
import { answerWaitMs } from "./transports/answer-wait";
import { executeDeliveries } from "./transports/dispatch";

/** A payload's data, and the upstream services they came through (see viaOfRuns). */
interface PayloadSlice {
  runs: readonly MetricRun[];
  via: readonly string[];
}

/**
 * A batch's data for the observers of one object (a metric's observers, or one selector observer),
 * and what became of them. `Item` is what that object's backlog keeps of a datum.
 */
interface ObjectWork<Item> {
  /** What the logs call it: the metric, or the selector observer. */
  name: string;
  /** The metrics whose data these are: when the work cannot be recorded, their messages come again. */
  metrics: readonly string[];
  /** The data in payload-sized slices; every observer of a slice is handed the same runs array. */
  slices: PayloadSlice[];
  plans: ObserverPlan[];
  deliveries: Delivery[];
  /** The batch's turn at the object's direct deliveries, handed back with the report. */
  turn?: number;
  /** A slice's data as the object's backlog keeps them. */
  itemsOf: (runs: readonly MetricRun[]) => readonly Item[];
  record: (report: BatchReport<Item>) => Promise<void>;
}

/** One metric's share of a batch: its work for its observers, its data, and who else wants them. */
interface MetricShare {
  metric: string;
  rows: DatumRow[];
  work: ObjectWork<DatumRow>;
  selectors: readonly SelectorEntry[];
  ruleReaders: string[];
}

/**
 * One delivery per observer delivered to now and payload-sized slice of the data, waited for as
 * long as its observer is known to need (see answer-wait.ts). `lane` names whose payloads go one
 * after the other.
 */
function deliveriesOf(
  slices: readonly PayloadSlice[],
  plans: readonly ObserverPlan[],
  lane: (observerId: string) => string,
  config: Config,
): Delivery[] {
  const delivered = plans.filter((plan) => !plan.held);
  return slices.flatMap(({ runs, via }) =>
    delivered.map(({ target, answeredInMs }) => ({
      target,
      runs,
      via,
      lane: lane(target.id),
      webhookId: newWebhookId(),
      attempt: 1,
      answerWaitMs: answerWaitMs(answeredInMs, config.DELIVERY_BUDGET_MS),
    })),
  );
}

/**
 * Asks the metric's object how the batch treats each of its observers: fresh, never from a cache,
 * so an observer registered before a datum was accepted always receives it, unless the object
 * leased its plan (only selector observers follow the metric: see plan-cache.ts) for a time that
 * covers the batch, received at `receivedAt`, in the plan epoch of the metric's shard (`epochs`,
 * read after the batch was received): then the batch's data go to the object through the
 * summary's write (see leased-intake.ts). The call also registers the metric, which repairs a
 * registration the intake could not see, names the observers that follow selectors, and brings the
 * object the batch's data. The rows stay as the queue messages brought them, which the payloads,
 * the recent data and the backlog all take as they are.
 */
async function planMetric(
  env: Env,
  config: Config,
  metric: string,
  rows: DatumRow[],
  chains: RowChains,
  receivedAt: number,
  epochs: ReadonlyMap<number, number>,
): Promise<MetricShare> {
  const lease = planCache.leaseOf(metric, receivedAt, epochs);
  if (lease !== undefined) {
    noteLeasedIntake({ metric, ...intakeOfRows(rows, Date.now()), leaseEndsAt: lease.until });
    return shareOf(env, config, metric, rows, chains, { observers: [], selectors: lease.selectors, ruleReaders: [] });
  }
  const askedAt = performance.now();
  const plan = await metricStub(env, metric).deliveryPlan(metric, intakeOfRows(rows, Date.now()));
  if (plan.leaseMs === undefined) planCache.forget(metric);
  else planCache.keep(metric, plan.selectors, askedAt, plan.leaseMs, epochs.get(shardOfKey(metric)));
  noteMetricFigures(plan.figures);
  return shareOf(env, config, metric, rows, chains, plan);
}

/** The metric's share of the batch by its plan. */
function shareOf(
  env: Env,
  config: Config,
  metric: string,
  rows: DatumRow[],
  chains: RowChains,
  plan: Pick<MetricPlan, "observers" | "turn" | "ruleReaders"> & { selectors: readonly SelectorEntry[] },
): MetricShare {
  // One set of slices for all the metric's observers: a format then serializes each slice once.
  const slices =
    plan.observers.length === 0
      ? []
      : packBatches(rows, { maxItems: maxDataPerPayload }).map((slice): PayloadSlice => {
          const runs: readonly MetricRun[] = [[metric, slice.items]];
          return { runs, via: viaOfRuns(runs, chains) };
        });
  const work: ObjectWork<DatumRow> = {
    name: JSON.stringify(metric),
    metrics: [metric],
    slices,
    plans: plan.observers,
    deliveries: deliveriesOf(slices, plan.observers, (id) => `${metric}\u0000${id}`, config),
    ...(plan.turn === undefined ? {} : { turn: plan.turn }),
    itemsOf: (runs) => runs[0]![1],
    record: async (report) => noteObserverSnapshots(await metricStub(env, metric).recordBatch(report)),
  };
  return { metric, rows, work, selectors: plan.selectors, ruleReaders: plan.ruleReaders };
}

/**
 * The work of one selector observer: the data of every metric it wants, one payload whatever their
 * metrics (more only past a payload's size), after asking its object how the batch treats it. An
 * observer removed since the metrics named it is forgotten by them.
 */
async function planSelectorObserver(
  env: Env,
  config: Config,
  entry: SelectorEntry,
  runs: MetricRun[],
  chains: RowChains,
): Promise<ObjectWork<readonly [string, DatumRow]> | undefined> {
  const stub = selectorObserverStub(env, entry.id);
  const metrics = runs.map(([metric]) => metric);
  const plan = await stub.deliveryPlan(runsData(runs));
  if (plan === null) {
    planCache.forgetSelector(entry.id);
    await Promise.all(metrics.map((metric) => metricStub(env, metric).forgetSelectorObserver(entry.id)));
    return undefined;
  }
  const slices = slicesOfRuns(runs, maxDataPerPayload).map((slice) => ({ runs: slice, via: viaOfRuns(slice, chains) }));
  const plans = [plan.observer];
  return {
    name: `the selector observer ${JSON.stringify(entry.id)}`,
    metrics,
    slices,
    plans,
    deliveries: deliveriesOf(slices, plans, (id) => id, config),
    ...(plan.turn === undefined ? {} : { turn: plan.turn }),
    itemsOf: metricDataOfRuns,
    record: async (report) => noteObserverSnapshots(await stub.recordBatch(report)),
  };
}

/**
 * What the object is told: every attempt, and the data its observers did not receive — all of the
 * batch for the held observers, each failed or unfinished payload for the others (with its webhook
 * id, so the retry carries the same one).
 */
function reportOf<Item>(work: ObjectWork<Item>, results: readonly DeliveryResult[], at: number): BatchReport<Item> {
  const owed: OwedData<Item>[] = [];
  const held = work.plans.filter((plan) => plan.held);
  // Held data are owed slice by slice too, so that no backlog chunk holds more than one payload.
  for (const { runs, via } of held.length > 0 ? work.slices : []) {
    owed.push({
      rows: work.itemsOf(runs),
      via,
      observers: held.map(({ target }) => ({ id: target.id, attempts: 0 })),
    });
  }
  const unfinished = Map.groupBy(
    results.filter((result) => !result.ok && !result.gone),
    (result) => result.delivery.runs,
  );
  for (const [runs, sliceResults] of unfinished) {
    owed.push({
      rows: work.itemsOf(runs),
      // Every delivery of a slice carries its chain.
      via: sliceResults[0]!.delivery.via ?? [],
      observers: sliceResults.map(({ delivery, refused }) => ({
        id: delivery.target.id,
        webhookId: delivery.webhookId,
        attempts: delivery.attempt,
        ...(refused ? { refused } : {}),
      })),
    });
  }
  return {
    attempts: results.map((result) => reportAttempt(result, at)),
    owed,
    ...(work.turn === undefined ? {} : { turn: work.turn }),
  };
}

/**
 * Delivers a batch's data, grouped by metric, to their observers — each metric's own, and the
 * observers that follow selectors — within the batch's budget, and records in each object what
 * happened and what its observers are still owed; meanwhile the rules that read a metric get its
 * share, as the messages that carried it (`messagesOf`, asked only for metrics rules read). Each
 * payload names the upstream services its data came through (`chains`). Resolves with the metrics
 * whose share could not be planned, recorded or given to a rule: their data must come again.
 * `receivedAt` is when the batch came (performance.now()), which the plan leases are judged by.
 */
export async function deliverBatch(
  env: Env,
  config: Config,
  rowsByMetric: Map<string, DatumRow[]>,
  messagesOf: (metric: string) => readonly FedMessage[] = () => [],
  chains: RowChains = new Map(),
  receivedAt = performance.now(),
): Promise<string[]> {
  const failed = new Set<string>();
  const failedWork = (metrics: readonly string[], what: string) => (error: unknown) => {
    console.error(`${what}: ${describe(error)}`);
    for (const metric of metrics) failed.add(metric);
    return undefined;
  };
  const epochs = await readPlanEpochs(env, planCache.shardsToRead(rowsByMetric.keys()));
  const planned = await Promise.all(
    [...rowsByMetric].map(([metric, rows]) =>
      planMetric(env, config, metric, rows, chains, receivedAt, epochs).catch(
        failedWork([metric], `observers of ${JSON.stringify(metric)} not read`),
      ),
    ),
  );
  const shares = planned.filter((share): share is MetricShare => share !== undefined);
  const selectsThroughModel = shares.some((share) => share.selectors.some((entry) => entry.resources !== undefined));
  const model = selectsThroughModel ? await currentModel(env) : undefined;
  const selectorWork = await Promise.all(
    [...selectBatch(shares, model)].map(([, { entry, runs }]) =>
      planSelectorObserver(env, config, entry, runs, chains).catch(
        failedWork(
          runs.map(([metric]) => metric),
          `selector observer ${JSON.stringify(entry.id)} not planned`,
        ),
      ),
    ),
  );
  const work: ObjectWork<unknown>[] = [
    ...shares.map((share) => share.work as ObjectWork<unknown>),
    ...selectorWork.filter((item) => item !== undefined).map((item) => item as ObjectWork<unknown>),
  ];
  const workOf = new Map(work.flatMap((item) => item.deliveries.map((delivery) => [delivery, item] as const)));
  const [results] = await Promise.all([
    executeDeliveries(
      work.flatMap((item) => item.deliveries),
      config,
      config.DELIVERY_BUDGET_MS,
    ),
    ...shares
      .filter((share) => share.ruleReaders.length > 0)
      .map((share) =>
        feedRules(env, share.metric, share.ruleReaders, messagesOf(share.metric)).catch(
          failedWork([share.metric], `rules reading ${JSON.stringify(share.metric)} not fed`),
        ),
      ),
  ]);
  const resultsByWork = Map.groupBy(results, (result) => workOf.get(result.delivery)!);
  const at = Date.now();
  await Promise.all(
    work.map(async (item) => {
      const report = reportOf(item, resultsByWork.get(item) ?? [], at);
      if (report.attempts.length === 0 && report.owed.length === 0 && report.turn === undefined) return;
      await item.record(report).catch(failedWork(item.metrics, `deliveries of ${item.name} not recorded`));
    }),
  );
  return [...failed];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
