import type { Config } from "../../config";
import type { Delivery, DeliveryResult } from "../vocabulary";
import { deliverOverHttp } from "./http";
import { deliverViaRelay } from "./relay-client";

/**
 * An invocation has at most six connections open at once; more HTTP deliveries in flight would
 * only wait for one, holding a built payload each. So payloads are built as connections free up.
 */
const simultaneousHttpDeliveries = 6;

async function deliverAllOverHttp(
  deliveries: Delivery[],
  timeoutMs: number,
  budget?: AbortSignal,
): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = new Array(deliveries.length);
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const index = next++;
      results[index] = await deliverOverHttp(deliveries[index]!, timeoutMs, budget);
    }
  };
  await Promise.all(Array.from({ length: Math.min(simultaneousHttpDeliveries, deliveries.length) }, worker));
  return results;
}

/**
 * Runs deliveries concurrently: HTTP ones from the Worker, TCP and UDP ones through the relay.
 * With `budgetMs`, whatever is not done by then ends as deferred instead of holding up the caller.
 */
export async function executeDeliveries(
  deliveries: Delivery[],
  config: Config,
  budgetMs?: number,
): Promise<DeliveryResult[]> {
  const budget = budgetMs === undefined ? undefined : AbortSignal.timeout(budgetMs);
  const overHttp = deliveries.filter((delivery) => delivery.target.protocol === "HTTP");
  const viaRelay = deliveries.filter((delivery) => delivery.target.protocol !== "HTTP");
  const [httpResults, relayResults] = await Promise.all([
    deliverAllOverHttp(overHttp, config.DELIVERY_TIMEOUT_MS, budget),
    viaRelay.length > 0 ? deliverViaRelay(viaRelay, config, budgetMs) : Promise.resolve([]),
  ]);
  return [...httpResults, ...relayResults];
}
