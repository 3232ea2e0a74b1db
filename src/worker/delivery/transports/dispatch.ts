import type { Config } from "../../config";
import type { Delivery, DeliveryResult } from "../vocabulary";
import { deliverOverHttp } from "./http";
import { deliverViaRelay } from "./relay-client";

/**
 * An invocation has at most six connections open at once; more HTTP deliveries in flight would
 * only wait for one, holding a built payload each. So payloads are built as connections free up.
 */
const simultaneousHttpDeliveries = 6;

/** A delivery the batch's budget left no time to start: nothing was sent, so its data go on from the backlog. */
function notStarted(delivery: Delivery): DeliveryResult {
  return {
    delivery,
    ok: false,
    deferred: true,
    error: "not started within the batch's budget; continued from the backlog",
    latencyMs: 0,
  };
}

/*
 * The batch's budget ends the starting of deliveries, not the deliveries under way. Cutting a
 * request once it is sent may cut one the observer has taken, which it then gets again from the
 * backlog; and cutting every request when the batch's budget ends would cut a payload sent late in
 * the batch after a fraction of the time a healthy observer needs. So a request to an observer
 * whose latest attempt succeeded within the budget runs its whole DELIVERY_TIMEOUT_MS: such an
 * observer answering late is busy, or the machine is, rather than failing, and cutting the request
 * would only duplicate it. The price: the first batch after such an observer stops answering waits
 * for its timeout, once; its backlog then keeps it from holding up later batches. A request to any
 * other observer (a new one, or one whose latest attempt failed or was slow) is cut one budget after
 * it was sent, so a hanging observer holds up no batch for longer than twice the budget.
 */
async function deliverAllOverHttp(
  deliveries: Delivery[],
  timeoutMs: number,
  budgetMs: number | undefined,
): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = new Array(deliveries.length);
  const budget = budgetMs === undefined ? undefined : AbortSignal.timeout(budgetMs);
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const delivery = deliveries[next]!;
      const index = next++;
      results[index] = budget?.aborted
        ? notStarted(delivery)
        : await deliverOverHttp(delivery, timeoutMs, delivery.prompt ? undefined : budgetMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(simultaneousHttpDeliveries, deliveries.length) }, worker));
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
