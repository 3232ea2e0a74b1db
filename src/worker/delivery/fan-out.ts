import { packBatches } from "../../shared/bounded-batches";
import { getOrCreate } from "../../shared/get-or-create";
import type { Config } from "../config";
import { metricStub } from "../metrics/metric-object";
import type { ObserverTarget } from "../metrics/observer-schema";
import { executeDeliveries } from "./transports/dispatch";
import {
  type Delivery,
  type DeliveryJob,
  type DeliveryOutcome,
  type DeliveryResult,
  newWebhookId,
  type Undelivered,
} from "./vocabulary";

/**
 * Most data in one payload. A batch normally gives each observer one payload; a batch larger than
 * this (tens of full intake messages on one metric) gives it several, which bounds the memory a
 * payload takes and keeps relay requests under the relay's body limit.
 */
export const maxDataPerPayload = 10_000;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Looks up a job's observers fresh from the metric's Durable Object — never from a cache, so an
 * observer registered before a datum was accepted always receives it. Looking up every observer
 * also registers the metric, which repairs a registration the intake could not see.
 */
async function lookUpTargets(env: Env, job: DeliveryJob): Promise<ObserverTarget[]> {
  const stub = metricStub(env, job.metric);
  if (job.observerId === undefined) return stub.deliveryTargets(job.metric);
  const target = await stub.observerTarget(job.observerId);
  return target ? [target] : [];
}

/** The deliveries that carry the jobs' data, and the jobs whose observers could not be looked up. */
interface DeliveryPlan {
  deliveries: Delivery[];
  /** The job each delivery carries data of. */
  jobOf: Map<Delivery, DeliveryJob>;
  unplanned: Undelivered[];
}

/**
 * One delivery per observer and payload-sized slice of each job. Retry jobs of one observer share a
 * look-up: one Durable Object request per observer (or metric) per batch.
 */
async function planDeliveries(env: Env, jobs: readonly DeliveryJob[]): Promise<DeliveryPlan> {
  const plan: DeliveryPlan = { deliveries: [], jobOf: new Map(), unplanned: [] };
  const lookUps = new Map<string, Promise<ObserverTarget[]>>();
  await Promise.all(
    jobs.map(async (job) => {
      const key = JSON.stringify([job.metric, job.observerId ?? null]);
      const lookUp = getOrCreate(lookUps, key, () => lookUpTargets(env, job));
      let targets: ObserverTarget[];
      try {
        targets = await lookUp;
      } catch (error) {
        plan.unplanned.push({
          ...job,
          attempts: job.attempts + 1,
          error: `observer look-up failed: ${describe(error)}`,
        });
        return;
      }
      // One set of slices for all the job's observers: a format then serializes each slice once.
      const slices = packBatches(job.data, { maxItems: maxDataPerPayload }).map((slice) => slice.items);
      for (const target of targets) {
        for (const data of slices) {
          const delivery = { metric: job.metric, target, data, webhookId: job.webhookId ?? newWebhookId() };
          plan.deliveries.push(delivery);
          plan.jobOf.set(delivery, job);
        }
      }
    }),
  );
  return plan;
}

/** The failed deliveries' data, still owed to their observers (an observer that is gone is owed nothing). */
function undeliveredOf(results: readonly DeliveryResult[], jobOf: Map<Delivery, DeliveryJob>): Undelivered[] {
  return results
    .filter((result) => !result.ok && !result.gone)
    .map(({ delivery, error }) => ({
      metric: delivery.metric,
      attempts: jobOf.get(delivery)!.attempts + 1,
      observerId: delivery.target.id,
      webhookId: delivery.webhookId,
      data: delivery.data,
      error: error ?? "delivery failed",
    }));
}

/**
 * Records the results on the observers' status, one call per metric, and removes the observers
 * that answered 410 Gone. Logged rather than thrown: losing a status update must not redeliver data.
 */
async function recordResults(env: Env, results: readonly DeliveryResult[]): Promise<void> {
  const at = Date.now();
  const byMetric = Map.groupBy(results, (result) => result.delivery.metric);
  await Promise.all(
    [...byMetric].map(async ([metric, metricResults]) => {
      const stub = metricStub(env, metric);
      const outcomes: DeliveryOutcome[] = [];
      const removals: Promise<unknown>[] = [];
      for (const { delivery, ok, gone, error } of metricResults) {
        if (gone) removals.push(stub.removeObserver(delivery.target.id));
        else
          outcomes.push({
            observerId: delivery.target.id,
            ok,
            data: delivery.data.length,
            at,
            ...(error ? { error } : {}),
          });
      }
      try {
        await Promise.all([...removals, outcomes.length > 0 ? stub.recordDeliveries(outcomes) : undefined]);
      } catch (error) {
        console.error(`delivery status of metric ${JSON.stringify(metric)} not recorded: ${describe(error)}`);
      }
    }),
  );
}

/**
 * Delivers each job's data to its observers and returns what remains undelivered. Observers that
 * succeeded are never part of what is returned, so a retry of it cannot duplicate anything for them.
 */
export async function runDeliveryJobs(env: Env, config: Config, jobs: readonly DeliveryJob[]): Promise<Undelivered[]> {
  const plan = await planDeliveries(env, jobs);
  const results = await executeDeliveries(plan.deliveries, config);
  await recordResults(env, results);
  return [...plan.unplanned, ...undeliveredOf(results, plan.jobOf)];
}
