import { type DeliveryAttemptLine, deliveryAttemptEvent } from "../../shared/delivery-attempt-line";
import type { AttemptReport, DeliveryResult } from "../vocabulary/delivery";
import { runsData } from "./metric-runs";

/**
 * A delivery's result as the metric's object records it, and as the Worker's log shows it: one
 * structured line per attempt (Workers Logs indexes its fields), so that an operator can follow
 * an observer or a webhook id across attempts without the API.
 */
export function reportAttempt(result: DeliveryResult, at: number): AttemptReport {
  const { delivery, ok, gone, deferred, refused, rejected, error, httpStatus, retryAfterSeconds, latencyMs } = result;
  const report: AttemptReport = {
    observerId: delivery.target.id,
    ok,
    ...(gone ? { gone } : {}),
    ...(deferred ? { deferred } : {}),
    ...(refused ? { refused } : {}),
    ...(rejected ? { rejected } : {}),
    ...(error === undefined ? {} : { error }),
    ...(httpStatus === undefined ? {} : { httpStatus }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    latencyMs,
    data: runsData(delivery.runs),
    webhookId: delivery.webhookId,
    attempt: delivery.attempt,
    at,
  };
  const line: DeliveryAttemptLine = {
    event: deliveryAttemptEvent,
    metric: delivery.runs.length === 1 ? delivery.runs[0]![0] : "",
    protocol: delivery.target.protocol,
    format: delivery.target.format,
    ...report,
  };
  console.log(JSON.stringify(line));
  return report;
}
