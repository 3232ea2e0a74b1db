import { ProtobufWriter } from "../../common/testing/protobuf-writer.ts";

/**
 * Prometheus remote write 1.0 WriteRequests, as a Prometheus server sends them (labels first, then
 * samples), for tests and the bench. Snappy compression is snappyjs's `compress`.
 */

/** Prometheus's stale marker, as the bits of a sample's value. */
export const staleMarkerBits = 0x7ff0000000000002n;

export interface SampleToEncode {
  /** The value, or as a bigint the bits of its double (stale markers, NaNs with a payload). */
  value: number | bigint;
  /** Milliseconds since the epoch, an integer. */
  timestamp: number;
}

export interface SeriesToEncode {
  /** `__name__` included, in the order given. */
  labels: Record<string, string> | [name: string, value: string][];
  samples: SampleToEncode[];
  /** How many native histogram samples to add after the samples. */
  histograms?: number;
  /** How many exemplars to add after the samples. */
  exemplars?: number;
}

export interface RequestExtras {
  /** How many MetricMetadata entries to add after the series. */
  metadata?: number;
}

export function encodeWriteRequest(series: readonly SeriesToEncode[], extras: RequestExtras = {}): Uint8Array {
  const request = new ProtobufWriter();
  for (const each of series) request.messageField(1, encodeTimeSeries(each));
  for (let index = 0; index < (extras.metadata ?? 0); index++) {
    request.messageField(
      3,
      new ProtobufWriter().varintField(1, 1).stringField(2, `family_${index}`).stringField(4, "help"),
    );
  }
  return request.finish();
}

function encodeTimeSeries({ labels, samples, histograms = 0, exemplars = 0 }: SeriesToEncode): ProtobufWriter {
  const series = new ProtobufWriter();
  for (const [name, value] of Array.isArray(labels) ? labels : Object.entries(labels)) {
    series.messageField(1, new ProtobufWriter().stringField(1, name).stringField(2, value));
  }
  for (const { value, timestamp } of samples) {
    const sample = new ProtobufWriter();
    if (typeof value === "bigint") sample.fixed64Field(1, value);
    else sample.doubleField(1, value);
    series.messageField(2, sample.varintField(2, timestamp));
  }
  for (let index = 0; index < exemplars; index++) {
    const label = new ProtobufWriter().stringField(1, "trace_id").stringField(2, `${index}`);
    series.messageField(3, new ProtobufWriter().messageField(1, label).doubleField(2, index).varintField(3, 1));
  }
  for (let index = 0; index < histograms; index++) {
    // count_int (1), sum (3), schema (4, sint32), zero_count_int (7), timestamp (15)
    series.messageField(
      4,
      new ProtobufWriter().varintField(1, 3).doubleField(3, 4.5).varintField(4, 6).varintField(7, 0).varintField(15, 1),
    );
  }
  return series;
}
