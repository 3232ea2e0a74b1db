import type { Label } from "../../../vocabulary/datum";
import { fixed64FieldLength, int64FieldLength, lengthDelimitedLength, ProtobufWriter } from "../protobuf-writer";

/*
 * Prometheus remote write 1.0's WriteRequest (prompb's remote.proto and types.proto), as a
 * Prometheus server writes it: each TimeSeries (WriteRequest field 1) its Labels (1) first, each a
 * name (1) and a value (2), then its Samples (2), each a double value (1) and an int64 timestamp in
 * milliseconds (2). A NaN is written as the quiet NaN, never as Prometheus's stale marker.
 */
const requestField = { timeseries: 1 } as const;
const seriesField = { labels: 1, samples: 2 } as const;
const labelField = { name: 1, value: 2 } as const;
const sampleField = { value: 1, timestamp: 2 } as const;

/** A Sample's value field, whatever the value. */
const sampleValueLength = fixed64FieldLength(sampleField.value);

const utf8 = new TextEncoder();

/** Samples of one series in a request: `timestamps` and `values` from `from` up to (not including) `to`. */
export interface TimeSeriesPart {
  /** The series' label fields, as `encodeLabelFields` wrote them. */
  labelFields: Uint8Array;
  /** Milliseconds since the epoch, safe integers. */
  timestamps: readonly number[];
  values: readonly number[];
  from: number;
  to: number;
}

/**
 * A TimeSeries' Label fields, in the order given: written once for a series, however many
 * requests its samples go in.
 */
export function encodeLabelFields(labels: readonly Label[]): Uint8Array {
  const encoded = labels.map(([name, value]) => {
    const nameBytes = utf8.encode(name);
    const valueBytes = utf8.encode(value);
    const length =
      lengthDelimitedLength(labelField.name, nameBytes.length) +
      lengthDelimitedLength(labelField.value, valueBytes.length);
    return { nameBytes, valueBytes, length };
  });
  let length = 0;
  for (const label of encoded) length += lengthDelimitedLength(seriesField.labels, label.length);
  const writer = new ProtobufWriter(length);
  for (const { nameBytes, valueBytes, length: labelLength } of encoded) {
    writer.lengthDelimited(seriesField.labels, labelLength);
    writer.bytes(labelField.name, nameBytes);
    writer.bytes(labelField.value, valueBytes);
  }
  return writer.finish();
}

/**
 * The length of each part's TimeSeries, and of each Sample, in order, into `sampleLengths` (a
 * Sample is at most 20 bytes): worked out once for measuring and writing. A RangeError when a
 * timestamp is not a safe integer.
 */
function measure(parts: readonly TimeSeriesPart[], sampleLengths: Uint8Array): number[] {
  const seriesLengths: number[] = [];
  let sample = 0;
  for (const { labelFields, timestamps, from, to } of parts) {
    let seriesLength = labelFields.length;
    for (let index = from; index < to; index++) {
      const sampleLength = sampleValueLength + int64FieldLength(sampleField.timestamp, timestamps[index]!);
      sampleLengths[sample++] = sampleLength;
      seriesLength += lengthDelimitedLength(seriesField.samples, sampleLength);
    }
    seriesLengths.push(seriesLength);
  }
  return seriesLengths;
}

/**
 * The WriteRequest of these series' samples. A RangeError, before anything is written, when a
 * timestamp is not a safe integer.
 */
export function writeRequestBytes(parts: readonly TimeSeriesPart[]): Uint8Array {
  const sampleLengths = new Uint8Array(parts.reduce((count, { from, to }) => count + to - from, 0));
  const seriesLengths = measure(parts, sampleLengths);
  let length = 0;
  for (const seriesLength of seriesLengths) length += lengthDelimitedLength(requestField.timeseries, seriesLength);
  const writer = new ProtobufWriter(length);
  let sample = 0;
  for (let part = 0; part < parts.length; part++) {
    const { labelFields, timestamps, values, from, to } = parts[part]!;
    writer.lengthDelimited(requestField.timeseries, seriesLengths[part]!);
    writer.raw(labelFields);
    for (let index = from; index < to; index++) {
      writer.lengthDelimited(seriesField.samples, sampleLengths[sample++]!);
      writer.double(sampleField.value, values[index]!);
      writer.int64(sampleField.timestamp, timestamps[index]!);
    }
  }
  return writer.finish();
}
