import { compress } from "snappyjs";
import { encodeWriteRequest } from "../src/worker/intake/remote-write/testing/write-request-encoder.ts";
import type { IntakeRequests } from "./intake-requests.ts";

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
  const firstTimestamp = Date.now() - 3_600_000;
  const bodies = Array.from({ length: requests }, (_, request) =>
    compress(
      encodeWriteRequest(
        Array.from({ length: seriesPerRequest }, (_, series) => ({
          labels: [
            ["__name__", metricOf(series)],
            ["instance", `host-${series}:9100`],
            ["job", "bench"],
          ] satisfies [string, string][],
          samples: [{ value: request * seriesPerRequest + series, timestamp: firstTimestamp + request }],
        })),
      ),
    ),
  );
  return {
    path: "/api/v1/write",
    bodies,
    contentType: "application/x-protobuf",
    headers: { "content-encoding": "snappy", "x-prometheus-remote-write-version": "0.1.0" },
    expectedStatus: 204,
    dataPerRequest: seriesPerRequest,
  };
}
