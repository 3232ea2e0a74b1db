import type { Config } from "../config";
import { type Delivery, type DeliveryResult, newWebhookId } from "./vocabulary";
import { executeDeliveries } from "./transports/dispatch";
import { type DeliveryOutcome, metricStub } from "../metrics/metric-object";
import type { Datum } from "../intake/datum";
import type { ObserverTarget } from "../metrics/observer-schema";

/** Data of one metric owed to every observer of the metric, or to one observer (`observerId`). */
export interface DeliveryJob {
  metric: string;
  data: Datum[];
  observerId?: string;
  webhookId?: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** What a job could not deliver, and to whom (no `observerId`: the observers could not be looked up). */
export interface Undelivered {
  metric: string;
  observerId?: string;
  webhookId?: string;
  data: Datum[];
  /** Attempts made, this one included. */
  attempts: number;
  error: string;
}

/**
 * Most data in one payload. A batch normally gives each observer one payload; a batch larger than
 * this (tens of full intake messages on one metric) gives it several, which bounds the memory a
 * payload takes and keeps relay requests under the relay's body limit.
 */
export const maxDataPerPayload = 10_000;

function slices<T>(items: T[], size: number): T[][] {
  if (items.length <= size) return [items];
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

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

/** Status updates are reported, not awaited by the guarantee: losing one must not redeliver data. */
async function recordResults(env: Env, metric: string, results: DeliveryResult[], at: number): Promise<void> {
  const stub = metricStub(env, metric);
  const outcomes: DeliveryOutcome[] = [];
  const removals: Promise<unknown>[] = [];
  for (const { delivery, ok, gone, error } of results) {
    if (gone) removals.push(stub.removeObserver(delivery.target.id));
    else outcomes.push({ observerId: delivery.target.id, ok, data: delivery.data.length, at, ...(error ? { error } : {}) });
  }
  try {
    await Promise.all([...removals, outcomes.length > 0 ? stub.recordDeliveries(outcomes) : undefined]);
  } catch (error) {
    console.error(`delivery status of metric ${JSON.stringify(metric)} not recorded: ${describe(error)}`);
  }
}

/**
 * Delivers each job's data to its observers (one payload per observer per job) and reports, per
 * job, what remains undelivered. Observers that succeeded are never part of what is returned, so a
 * retry of the returned data cannot duplicate anything for them.
 */
export async function runDeliveryJobs(env: Env, config: Config, jobs: DeliveryJob[]): Promise<Undelivered[][]> {
  const undelivered: Undelivered[][] = jobs.map(() => []);
  const deliveries: Delivery[] = [];
  const jobOfDelivery = new Map<Delivery, number>();
  // Retry messages of one observer share a look-up: one Durable Object request per observer per batch.
  const lookUps = new Map<string, Promise<ObserverTarget[]>>();
  const lookUpOnce = (job: DeliveryJob) => {
    const key = JSON.stringify([job.metric, job.observerId ?? null]);
    let targets = lookUps.get(key);
    if (!targets) lookUps.set(key, (targets = lookUpTargets(env, job)));
    return targets;
  };
  await Promise.all(
    jobs.map(async (job, jobIndex) => {
      let targets: ObserverTarget[];
      try {
        targets = await lookUpOnce(job);
      } catch (error) {
        undelivered[jobIndex]!.push({
          ...job,
          attempts: job.attempts + 1,
          error: `observer look-up failed: ${describe(error)}`,
        });
        return;
      }
      // One set of slices for all the job's observers: a format then serializes each slice once.
      const jobSlices = slices(job.data, maxDataPerPayload);
      for (const target of targets) {
        for (const data of jobSlices) {
          const delivery = { metric: job.metric, target, data, webhookId: job.webhookId ?? newWebhookId() };
          deliveries.push(delivery);
          jobOfDelivery.set(delivery, jobIndex);
        }
      }
    }),
  );
  const results = await executeDeliveries(deliveries, config);

  const resultsByMetric = new Map<string, DeliveryResult[]>();
  for (const result of results) {
    const { delivery } = result;
    const sameMetric = resultsByMetric.get(delivery.metric) ?? [];
    sameMetric.push(result);
    resultsByMetric.set(delivery.metric, sameMetric);
    if (!result.ok && !result.gone) {
      const jobIndex = jobOfDelivery.get(delivery)!;
      undelivered[jobIndex]!.push({
        metric: delivery.metric,
        attempts: jobs[jobIndex]!.attempts + 1,
        observerId: delivery.target.id,
        webhookId: delivery.webhookId,
        data: delivery.data,
        error: result.error ?? "delivery failed",
      });
    }
  }
  const at = Date.now();
  await Promise.all([...resultsByMetric].map(([metric, metricResults]) => recordResults(env, metric, metricResults, at)));
  return undelivered;
}
