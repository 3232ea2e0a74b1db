import { packBatches } from "../../../shared/bounded-batches";
import { type RelayDelivery, relayDeliveriesPath, relayResponseSchema } from "../../../shared/relay-contract";
import { countedFetch } from "../../common/usage";
import type { Config } from "../../config";
import { isStreamFormat } from "../../metrics/observer-kinds";
import type { Delivery, DeliveryResult } from "../../vocabulary/delivery";
import { streamSerializerFor } from "../formats";

const maxDeliveriesPerRequest = 1_000;
/** Well under the relay's default body limit (8 MiB), JSON escaping included. */
const maxRequestChars = 4 * 1024 * 1024;

function requestChars(request: RelayDelivery): number {
  return request.protocol === "TCP"
    ? request.payload.length
    : request.records.reduce((sum, record) => sum + record.length + 3, 0);
}

/** JSON documents on a byte stream need a delimiter; line formats already end with one. */
function streamBytes(payloads: string[]): string {
  return payloads.map((payload) => (payload.endsWith("\n") ? payload : `${payload}\n`)).join("");
}

function toRelayDelivery(delivery: Delivery, id: string): RelayDelivery | undefined {
  const { target, runs } = delivery;
  if (!isStreamFormat(target.format)) throw new Error(`${target.format} is not sent over ${target.protocol}`);
  const serializer = streamSerializerFor(target.format);
  const destination = { id, host: target.observerHost!, port: target.observerPort! };
  if (target.protocol === "TCP") {
    const payload = streamBytes(serializer.payloads(runs).filter((text) => text.length > 0));
    return payload.length > 0 ? { ...destination, protocol: "TCP", payload } : undefined;
  }
  const records = serializer.records(runs);
  return records.length > 0 ? { ...destination, protocol: "UDP", records, packing: serializer.packing } : undefined;
}

async function postToRelay(
  config: Config,
  batch: { delivery: Delivery; request: RelayDelivery }[],
  deadlineMs: number | undefined,
): Promise<DeliveryResult[]> {
  const started = Date.now();
  const answer = (delivery: Delivery, outcome: Omit<DeliveryResult, "delivery" | "latencyMs">): DeliveryResult => ({
    delivery,
    ...outcome,
    latencyMs: Date.now() - started,
  });
  const failAll = (error: string) => batch.map(({ delivery }) => answer(delivery, { ok: false, error }));
  let response: Response;
  try {
    response = await countedFetch(new URL(relayDeliveriesPath, config.RELAY_URL), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${config.RELAY_TOKEN}` },
      body: JSON.stringify({ deliveries: batch.map(({ request }) => request), deadlineMs }),
      signal: AbortSignal.timeout(config.DELIVERY_TIMEOUT_MS * 2),
    });
  } catch (error) {
    return failAll(`relay unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    return failAll(`relay answered HTTP ${response.status}`);
  }
  const parsed = relayResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) return failAll("relay answered with an unreadable body");
  const byId = new Map(parsed.data.results.map((result) => [result.id, result]));
  return batch.map(({ delivery, request }) => {
    const result = byId.get(request.id);
    if (!result) return answer(delivery, { ok: false, error: "relay did not report this delivery" });
    if (result.ok) return answer(delivery, { ok: true });
    if (result.pending) {
      return answer(delivery, {
        ok: false,
        deferred: true,
        error: "not done within the batch's budget; continued from the backlog",
      });
    }
    return answer(delivery, { ok: false, error: `relay: ${result.error ?? "failed"}` });
  });
}

/**
 * Hands TCP and UDP deliveries to the relay, in requests of at most a thousand deliveries and a
 * few MiB. Without a configured relay they fail, and so wait in the backlog until one is
 * configured. With `budgetMs`, the relay answers by then whatever is done.
 */
export async function deliverViaRelay(
  deliveries: Delivery[],
  config: Config,
  budgetMs?: number,
): Promise<DeliveryResult[]> {
  if (config.RELAY_URL === "") {
    return deliveries.map((delivery) => ({
      delivery,
      ok: false,
      error: "no relay configured (RELAY_URL)",
      latencyMs: 0,
    }));
  }
  const results: DeliveryResult[] = [];
  const pending: { delivery: Delivery; request: RelayDelivery }[] = [];
  deliveries.forEach((delivery, index) => {
    const request = toRelayDelivery(delivery, String(index));
    if (request) pending.push({ delivery, request });
    else results.push({ delivery, ok: true, latencyMs: 0 });
  });
  const requests = packBatches(pending, {
    maxItems: maxDeliveriesPerRequest,
    maxSize: maxRequestChars,
    sizeOf: (item) => requestChars(item.request),
  }).map((batch) => postToRelay(config, batch.items, budgetMs));
  for (const batchResults of await Promise.all(requests)) results.push(...batchResults);
  return results;
}
