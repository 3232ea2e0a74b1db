import { countedFetch } from "../../ops/usage";
import { serviceVersion } from "../../ops/version";
import { serializerFor } from "../formats";
import { retryAfterSeconds } from "../retry-schedule";
import type { Delivery, DeliveryResult } from "../vocabulary";
import { describeNetworkError } from "./network-failure";
import { signWebhook } from "./webhook-signature";

/**
 * Why a request ended without an answer: the batch stopped waiting for it first, the observer never
 * answered, or it could not be reached.
 */
function describeFailure(
  error: unknown,
  callbackUrl: string,
  timeoutMs: number,
  batchWait: AbortSignal | undefined,
): Partial<DeliveryResult> {
  if (batchWait?.aborted)
    return { deferred: true, error: "not answered within the batch's budget; continued from the backlog" };
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return { error: `no answer within ${timeoutMs} ms` };
  }
  return { error: describeNetworkError(error, callbackUrl) };
}

async function send(
  delivery: Delivery,
  body: string | undefined,
  contentType: string,
  timeoutMs: number,
  batchWait: AbortSignal | undefined,
): Promise<Omit<DeliveryResult, "delivery" | "latencyMs">> {
  const { target, webhookId } = delivery;
  const headers: Record<string, string> = {
    ...target.headers,
    ...(body === undefined ? {} : { "content-type": contentType }),
    "user-agent": `tower-edge/${serviceVersion}`,
    // Every delivery carries its id, signed or not, so any receiver can drop a repeated one.
    "webhook-id": webhookId,
  };
  if (target.secrets.length > 0) {
    Object.assign(headers, await signWebhook(target.secrets, webhookId, Math.floor(Date.now() / 1000), body ?? ""));
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    // Redirects are not followed: a 3xx could point the service at an address the observer checks refused.
    const response = await countedFetch(target.callbackUrl!, {
      method: target.method ?? "POST",
      ...(body === undefined ? {} : { body }),
      headers,
      redirect: "manual",
      signal: batchWait ? AbortSignal.any([timeout, batchWait]) : timeout,
    });
    await response.body?.cancel();
    const httpStatus = response.status;
    if (httpStatus >= 200 && httpStatus < 300) return { ok: true, httpStatus };
    const waitSeconds =
      httpStatus === 429 || httpStatus === 503
        ? retryAfterSeconds(response.headers.get("retry-after"), Date.now())
        : undefined;
    return {
      ok: false,
      httpStatus,
      gone: httpStatus === 410,
      error: `HTTP ${httpStatus} from the observer`,
      ...(waitSeconds === undefined ? {} : { retryAfterSeconds: waitSeconds }),
    };
  } catch (error) {
    return { ok: false, ...describeFailure(error, target.callbackUrl!, timeoutMs, batchWait) };
  }
}

/**
 * The requests of a delivery: the format's payload(s), or for a rule's REST call one request per
 * datum, without a body for GET and DELETE.
 */
function requestBodies(delivery: Delivery): (string | undefined)[] {
  const { metric, rows, target } = delivery;
  const serializer = serializerFor(target.format);
  if (target.method === undefined) return serializer.payloads(metric, rows);
  if (target.method === "GET" || target.method === "DELETE") return rows.map(() => undefined);
  return rows.flatMap((row) => serializer.payloads(metric, [row]));
}

/**
 * Sends the delivery's payload(s) to the observer's callbackUrl; it succeeds only if every request
 * got a 2xx. With `answerWaitMs`, the delivery is cut (deferred) when it is not done that long after
 * it started.
 */
export async function deliverOverHttp(
  delivery: Delivery,
  timeoutMs: number,
  answerWaitMs?: number,
): Promise<DeliveryResult> {
  const started = Date.now();
  const batchWait = answerWaitMs === undefined ? undefined : AbortSignal.timeout(answerWaitMs);
  const { contentType } = serializerFor(delivery.target.format);
  let last: Omit<DeliveryResult, "delivery" | "latencyMs"> = { ok: true };
  for (const body of requestBodies(delivery)) {
    if (body?.length === 0) continue;
    last = await send(delivery, body, contentType, timeoutMs, batchWait);
    if (!last.ok) break;
  }
  return { delivery, ...last, latencyMs: Date.now() - started };
}
