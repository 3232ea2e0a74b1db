import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { otlpJsonRequest } from "./otlp-json-writer";
import { type OtlpMetricsRequest, otlpMetricsRequest } from "./otlp-metrics-request";
import { otlpProtobufRequest } from "./otlp-protobuf-writer";

/*
 * The bodies of OTLP and OTLP/JSON deliveries: one export request a payload, not split. A payload
 * holds at most maxDataPerPayload data, and a receiver that finds a request too large answers 413,
 * which splits the payload in halves (API.md, "Outputs for metric backends").
 */

/** The payload's request, or none when no datum is left to carry. */
function requestsOf(runs: readonly MetricRun[], changes: LabelChanges | undefined): OtlpMetricsRequest[] {
  const request = otlpMetricsRequest(runs, changes);
  return request.resourceMetrics.length === 0 ? [] : [request];
}

/** OTLP: ExportMetricsServiceRequest bodies as application/x-protobuf. */
export function otlpPayloads(runs: readonly MetricRun[], changes?: LabelChanges): Uint8Array<ArrayBuffer>[] {
  return requestsOf(runs, changes).map(otlpProtobufRequest);
}

/** OTLP/JSON: ExportMetricsServiceRequest bodies as application/json. */
export function otlpJsonPayloads(runs: readonly MetricRun[], changes?: LabelChanges): string[] {
  return requestsOf(runs, changes).map(otlpJsonRequest);
}
