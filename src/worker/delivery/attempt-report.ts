import type { AttemptReport, DeliveryResult } from "./vocabulary";

/** A delivery's result as the metric's object records it. */
export function toAttemptReport(result: DeliveryResult, at: number): AttemptReport {
  const { delivery, ok, gone, deferred, error, httpStatus, retryAfterSeconds, latencyMs } = result;
  return {
    observerId: delivery.target.id,
    ok,
    ...(gone ? { gone } : {}),
    ...(deferred ? { deferred } : {}),
    ...(error === undefined ? {} : { error }),
    ...(httpStatus === undefined ? {} : { httpStatus }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    latencyMs,
    data: delivery.data.length,
    webhookId: delivery.webhookId,
    attempt: delivery.attempt,
    at,
  };
}
