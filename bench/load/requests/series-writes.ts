import { compress } from "snappyjs";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder.ts";
import type { IntakeRequests } from "./intake-requests.ts";

/*
 * Remote write bodies as a Prometheus that scrapes often and sends in shards writes them: each
 * series with several samples. Every sample's value is its sequence number, so that a receiver
 * behind a hop of the pipeline can tell each (SampleTally).
 */

export const seriesPerBody = 200;
export const samplesPerSeries = 10;
export const samplesPerBody = seriesPerBody * samplesPerSeries;

/** Which bodies of a sequence to build, and how its series are named. */
export interface SeriesWrites {
  /** The index of the first body in the sequence, and how many. */
  first: number;
  count: number;
  /** Series `s` of every body is named `metricOf(s)` and labelled `instance="host-<s>:9100"`, `job="bench"`. */
  metricOf: (series: number) => string;
  /** The first sample's timestamp in milliseconds; the whole sequence shares it. */
  startMs: number;
  /** The bodies' shape, the constants above unless given. */
  seriesPerBody?: number;
  samplesPerSeries?: number;
}

/**
 * Bodies `first` … `first + count - 1` of a sequence of snappy WriteRequests of
 * `seriesPerBody` series × `samplesPerSeries` samples: sample `k` of series `s` in body `b` has
 * the value b × samplesPerBody + s × samplesPerSeries + k and the timestamp startMs + b ×
 * samplesPerSeries + k, so every series' samples of the whole sequence come in timestamp order,
 * one millisecond apart.
 */
export function sequencedSeriesWrites(writes: SeriesWrites): IntakeRequests {
  const { first, count, metricOf, startMs } = writes;
  const series = writes.seriesPerBody ?? seriesPerBody;
  const samples = writes.samplesPerSeries ?? samplesPerSeries;
  const bodies = Array.from({ length: count }, (_, index) => {
    const body = first + index;
    return compress(
      encodeWriteRequest(
        Array.from({ length: series }, (_, seriesIndex) => ({
          labels: [
            ["__name__", metricOf(seriesIndex)],
            ["instance", `host-${seriesIndex}:9100`],
            ["job", "bench"],
          ] satisfies [string, string][],
          samples: Array.from({ length: samples }, (_, sample) => ({
            value: (body * series + seriesIndex) * samples + sample,
            timestamp: startMs + body * samples + sample,
          })),
        })),
      ),
    );
  });
  return {
    path: "/api/v1/write",
    bodies,
    contentType: "application/x-protobuf",
    headers: { "content-encoding": "snappy", "x-prometheus-remote-write-version": "0.1.0" },
    expectedStatus: 204,
    dataPerRequest: series * samples,
  };
}
