import { countedFetch } from "../../ops/usage";
import { serviceVersion } from "../../ops/version";
import { serializerFor } from "../formats";
import type { Delivery, DeliveryResult } from "../vocabulary";
import { signWebhook } from "./webhook-signature";

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${timeoutMs} ms`;
  }
  return `network error: ${error instanceof Error ? error.message : String(error)}`;
}

async function post(delivery: Delivery, body: string, contentType: string, timeoutMs: number): Promise<DeliveryResult> {
  const { target } = delivery;
  const headers: Record<string, string> = { "content-type": contentType, "user-agent": `tower-edge/${serviceVersion}` };
  if (target.secret) {
    Object.assign(headers, await signWebhook(target.secret, delivery.webhookId, Math.floor(Date.now() / 1000), body));
  }
  try {
    // Redirects are not followed: a 3xx could point the service at an address the observer checks refused.
    const response = await countedFetch(target.callbackUrl!, {
      method: "POST",
      body,
      headers,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { delivery, ok: true };
    return { delivery, ok: false, gone: response.status === 410, error: `HTTP ${response.status} from the observer` };
  } catch (error) {
    return { delivery, ok: false, error: describeFailure(error, timeoutMs) };
  }
}

/** POSTs the delivery's payload(s) to the observer's callbackUrl; it succeeds only if every POST got a 2xx. */
export async function deliverOverHttp(delivery: Delivery, timeoutMs: number): Promise<DeliveryResult> {
  const serializer = serializerFor(delivery.target.format);
  for (const body of serializer.payloads(delivery.data)) {
    if (body.length === 0) continue;
    const result = await post(delivery, body, serializer.contentType, timeoutMs);
    if (!result.ok) return result;
  }
  return { delivery, ok: true };
}
