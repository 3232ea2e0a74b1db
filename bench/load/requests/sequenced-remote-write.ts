import type { IntakeRequests } from "./intake-requests.ts";
import { sequencedSeriesWrites } from "./series-writes.ts";

/**
 * Prometheus remote write requests whose samples' values are their sequence numbers, so that a
 * receiver can tell each datum (DatumTally): `requests` bodies of `seriesPerRequest` series of one
 * sample each, series `s` named `metricOf(s)`, with the labels `instance="host-<s>:9100"` and
 * `job="bench"`. Request `r` holds sequence numbers r × seriesPerRequest onwards, its samples one
 * millisecond after the request before, counted from an hour ago.
 */
export function sequencedRemoteWrite(
  requests: number,
  seriesPerRequest: number,
  metricOf: (series: number) => string,
): IntakeRequests {
  return sequencedSeriesWrites({
    first: 0,
    count: requests,
    metricOf,
    startMs: Date.now() - 3_600_000,
    seriesPerBody: seriesPerRequest,
    samplesPerSeries: 1,
  });
}
