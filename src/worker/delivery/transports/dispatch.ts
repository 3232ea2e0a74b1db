import type { Config } from "../../config";
import type { Delivery, DeliveryResult } from "../../vocabulary/delivery";
import { deliverOverHttp } from "./http";
import { deliverViaRelay } from "./relay-client";

/**
 * An invocation has at most six connections open at once; more HTTP deliveries in flight would
 * only wait for one, holding a built payload each. So payloads are built as connections free up.
 */
const simultaneousHttpDeliveries = 6;

/** A delivery the batch left unsent: its data go on from the backlog, in their turn. */
function unsent(delivery: Delivery, why: string): DeliveryResult {
  return { delivery, ok: false, deferred: true, error: `${why}; continued from the backlog`, latencyMs: 0 };
}

/*
 * The batch's budget ends the starting of deliveries; each request is then waited for as long as
 * its delivery's `answerWaitMs` (see answer-wait.ts), and abandoned after that. An abandoned request
 * may have reached the observer or not: nothing tells, so its payload is owed again, with its
 * webhook id, and a receiver that did take it recognises the repeat. Waiting longer for an observer
 * that answered before would spare that repeat, but would make its first hang cost every other
 * observer the wait (the batch, and the batches queued behind it, wait for the slowest request).
 *
 * An observer's payloads go one after the other: once one is not delivered, the ones behind it are
 * not sent, so that they do not overtake it; they follow it from the backlog.
 */
async function deliverAllOverHttp(
  deliveries: Delivery[],
  timeoutMs: number,
  budgetMs: number | undefined,
): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = new Array(deliveries.length);
  const budget = budgetMs === undefined ? undefined : AbortSignal.timeout(budgetMs);
  const lanes = [...Map.groupBy(deliveries.keys(), (index) => deliveries[index]!.lane).values()];
  let next = 0;
  const worker = async () => {
    while (next < lanes.length) {
      let undelivered = false;
      for (const index of lanes[next++]!) {
        const delivery = deliveries[index]!;
        const result: DeliveryResult = budget?.aborted
          ? unsent(delivery, "not started within the batch's budget")
          : undelivered
            ? unsent(delivery, "not sent behind an earlier payload the observer did not take")
            : await deliverOverHttp(delivery, timeoutMs, delivery.answerWaitMs ?? budgetMs);
        undelivered ||= !result.ok;
        results[index] = result;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(simultaneousHttpDeliveries, lanes.length) }, worker));
  return results;
}

/**
 * Runs deliveries concurrently: HTTP ones from the Worker, TCP and UDP ones through the relay.
 * With `budgetMs`, what is not done within the budget (see above; the relay answers by then) ends
 * as deferred instead of holding up the caller.
 */
export async function executeDeliveries(
  deliveries: Delivery[],
  config: Config,
  budgetMs?: number,
): Promise<DeliveryResult[]> {
  const overHttp = deliveries.filter((delivery) => delivery.target.protocol === "HTTP");
  const viaRelay = deliveries.filter((delivery) => delivery.target.protocol !== "HTTP");
  const [httpResults, relayResults] = await Promise.all([
    deliverAllOverHttp(overHttp, config.DELIVERY_TIMEOUT_MS, budgetMs),
    viaRelay.length > 0 ? deliverViaRelay(viaRelay, config, budgetMs) : Promise.resolve([]),
  ]);
  return [...httpResults, ...relayResults];
}
