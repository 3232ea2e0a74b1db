import { getOrCreate } from "../../../common/get-or-create";
import type { Label } from "../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { prometheusSeries } from "./prometheus-series";
import { encodeSnappyBlock } from "./snappy-block-writer";
import { encodeLabelFields, type TimeSeriesPart, writeRequestBytes } from "./write-request-writer";

/** Most samples in one remote write request, as Prometheus's own `max_samples_per_send` default. */
export const maxSamplesPerRequest = 2_000;

/** Each label set's fields, written once: prometheusSeries gives a series the same labels from batch to batch. */
const labelFieldsOf = new WeakMap<readonly Label[], Uint8Array>();

/**
 * The bodies of the remote write requests carrying the runs' data (snappy-compressed
 * WriteRequests), none without samples. Series are filled in as they come; one that does not fit
 * in a request continues in the next, so its earlier samples go in earlier requests.
 */
export function prometheusPayloads(runs: readonly MetricRun[], changes?: LabelChanges): Uint8Array[] {
  const requests: TimeSeriesPart[][] = [];
  let request: TimeSeriesPart[] = [];
  let room = maxSamplesPerRequest;
  for (const { labels, timestamps, values } of prometheusSeries(runs, changes)) {
    const fields = getOrCreate(labelFieldsOf, labels, encodeLabelFields);
    for (let from = 0; from < timestamps.length; ) {
      const to = Math.min(timestamps.length, from + room);
      request.push({ labelFields: fields, timestamps, values, from, to });
      room -= to - from;
      from = to;
      if (room === 0) {
        requests.push(request);
        request = [];
        room = maxSamplesPerRequest;
      }
    }
  }
  if (request.length > 0) requests.push(request);
  return requests.map((parts) => encodeSnappyBlock(writeRequestBytes(parts)));
}
