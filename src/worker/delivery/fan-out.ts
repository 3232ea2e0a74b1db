import { packBatches } from "../../shared/bounded-batches";
import type { Config } from "../config";
import type { DatumRow } from "../intake/datum";
import { recentDataKept } from "../metrics/kept-entries";
import { metricStub } from "../metrics/metric-object";
import { feedRules } from "../rules/rule-feed";
import type { FedMessage } from "../rules/rule-object";
import { reportAttempt } from "./attempt-report";
import { answerWaitMs } from "./transports/answer-wait";
import { executeDeliveries } from "./transports/dispatch";
import {
  type BatchReport,
  type Delivery,
  type DeliveryResult,
  maxDataPerPayload,
  newWebhookId,
  type ObserverPlan,
  type OwedData,
} from "./vocabulary";

/** One metric's share of a batch, and what became of it. */
interface MetricWork {
  metric: string;
  /** The data in payload-sized slices. */
  slices: DatumRow[][];
  plans: ObserverPlan[];
  deliveries: Delivery[];
  ruleReaders: string[];
  /** The batch's turn at the metric's direct deliveries, handed back with the report. */
  turn?: number;
}

/**
 * Asks the metric's object how the batch treats each of its observers: fresh, never from a cache,
 * so an observer registered before a datum was accepted always receives it; the call also
 * registers the metric, which repairs a registration the intake could not see. Then one delivery
 * per observer delivered to now and payload-sized slice of the data: the rows as the queue messages
 * brought them, which the payloads, the recent data and the backlog all take as they are. Each
 * delivery is waited for as long as its observer is known to need (see answer-wait.ts).
 */
async function planMetric(env: Env, config: Config, metric: string, rows: DatumRow[]): Promise<MetricWork> {
  const {
    observers: plans,
    ruleReaders,
    turn,
  } = await metricStub(env, metric).deliveryPlan(metric, {
    latest: rows.slice(-recentDataKept),
    count: rows.length,
  });
  // One set of slices for all the metric's observers: a format then serializes each slice once.
  const slices = packBatches(rows, { maxItems: maxDataPerPayload }).map((slice) => slice.items);
  const delivered = plans.filter((plan) => !plan.held);
  const deliveries = slices.flatMap((slice) =>
    delivered.map(({ target, answeredInMs }) => ({
      metric,
      target,
      rows: slice,
      webhookId: newWebhookId(),
      attempt: 1,
      answerWaitMs: answerWaitMs(answeredInMs, config.DELIVERY_BUDGET_MS),
    })),
  );
  return { metric, slices, plans, deliveries, ruleReaders, ...(turn === undefined ? {} : { turn }) };
}

/**
 * What the metric's object is told: every attempt, and the data its observers did not receive —
 * all of the batch for the held observers, each failed or unfinished payload for the others (with
 * its webhook id, so the retry carries the same one).
 */
function reportOf(work: MetricWork, results: readonly DeliveryResult[], at: number): BatchReport {
  const owed: OwedData[] = [];
  const held = work.plans.filter((plan) => plan.held);
  // Held data are owed slice by slice too, so that no backlog chunk holds more than one payload.
  for (const rows of held.length > 0 ? work.slices : []) {
    owed.push({ rows, observers: held.map(({ target }) => ({ id: target.id, attempts: 0 })) });
  }
  const unfinished = Map.groupBy(
    results.filter((result) => !result.ok && !result.gone),
    (result) => result.delivery.rows,
  );
  for (const [rows, sliceResults] of unfinished) {
    owed.push({
      rows,
      observers: sliceResults.map(({ delivery }) => ({
        id: delivery.target.id,
        webhookId: delivery.webhookId,
        attempts: delivery.attempt,
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
 * Delivers a batch's data, grouped by metric, to their observers, within the batch's budget, and
 * records in each metric's object what happened and what its observers are still owed; meanwhile
 * the rules that read a metric get its share, as the messages that carried it. Resolves with the
 * metrics whose share could not be planned, recorded or given to a rule: their data must come again.
 */
export async function deliverBatch(
  env: Env,
  config: Config,
  rowsByMetric: Map<string, DatumRow[]>,
  messagesByMetric: ReadonlyMap<string, FedMessage[]> = new Map(),
): Promise<string[]> {
  const failed: string[] = [];
  const planned = await Promise.all(
    [...rowsByMetric].map(([metric, rows]) =>
      planMetric(env, config, metric, rows).catch((error: unknown) => {
        console.error(`observers of ${JSON.stringify(metric)} not read: ${describe(error)}`);
        failed.push(metric);
        return undefined;
      }),
    ),
  );
  const work = planned.filter((item): item is MetricWork => item !== undefined);
  const [results] = await Promise.all([
    executeDeliveries(
      work.flatMap((item) => item.deliveries),
      config,
      config.DELIVERY_BUDGET_MS,
    ),
    ...work.map((item) =>
      feedRules(env, item.metric, item.ruleReaders, messagesByMetric.get(item.metric) ?? []).catch((error: unknown) => {
        console.error(`rules reading ${JSON.stringify(item.metric)} not fed: ${describe(error)}`);
        failed.push(item.metric);
      }),
    ),
  ]);
  const resultsByMetric = Map.groupBy(results, (result) => result.delivery.metric);
  const at = Date.now();
  await Promise.all(
    work.map(async (item) => {
      const report = reportOf(item, resultsByMetric.get(item.metric) ?? [], at);
      if (report.attempts.length === 0 && report.owed.length === 0 && report.turn === undefined) return;
      try {
        await metricStub(env, item.metric).recordBatch(report);
      } catch (error) {
        console.error(`deliveries of ${JSON.stringify(item.metric)} not recorded: ${describe(error)}`);
        failed.push(item.metric);
      }
    }),
  );
  return failed;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
