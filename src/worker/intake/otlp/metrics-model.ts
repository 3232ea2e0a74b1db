import type { Label } from "../../vocabulary/datum";
/*
 * What the two readers of an OTLP ExportMetricsServiceRequest (protobuf and JSON) hand the mapping,
 * one data point at a time: only the fields the mapping reads, in the same form from both
 * encodings. Points are handed over as they are read rather than as a tree of the whole request,
 * so that the mapping can stop a request past its limit before the rest of it takes memory.
 */

/**
 * An attribute value (common/v1 AnyValue): bigint for int_value (exact), number for double_value,
 * undefined when no value is set.
 */
export type AnyValue = string | boolean | bigint | number | Uint8Array | readonly AnyValue[] | KeyValueList | undefined;

/** A kvlist_value. */
export interface KeyValueList {
  readonly keyValues: readonly Attribute[];
}

export type Attribute = readonly [key: string, value: AnyValue];

/**
 * How deeply array and kvlist values may nest in one another: readers refuse deeper values, so
 * that rendering them cannot exhaust the stack.
 */
export const maxValueNesting = 32;

/** The data point flag (DataPointFlags) of a point that is valid but carries no recorded value. */
export const noRecordedValueFlag = 1;

interface PointFields {
  attributes: readonly Attribute[];
  /** time_unix_nano in whole milliseconds rounded down; undefined when it is 0 (not set). */
  time: number | undefined;
  flags: number;
}

/** A gauge's or a sum's NumberDataPoint; `value` is undefined when neither as_double nor as_int is set. */
export interface NumberPoint extends PointFields {
  kind: "number";
  value: number | undefined;
}

export interface HistogramPoint extends PointFields {
  kind: "histogram";
  count: number;
  sum: number | undefined;
  min: number | undefined;
  max: number | undefined;
  /** Per bucket, as sent (not cumulative). */
  bucketCounts: number[];
  explicitBounds: number[];
}

export interface ExponentialHistogramPoint extends PointFields {
  kind: "exponentialHistogram";
  count: number;
  sum: number | undefined;
  min: number | undefined;
  max: number | undefined;
}

export interface SummaryPoint extends PointFields {
  kind: "summary";
  count: number;
  sum: number;
  quantiles: { quantile: number; value: number }[];
}

/** A data point whose own fields could not be decoded. */
export interface MalformedPoint {
  kind: "malformed";
  reason: string;
}

export type DataPoint = NumberPoint | HistogramPoint | ExponentialHistogramPoint | SummaryPoint | MalformedPoint;

/** Where a data point sits in the request. */
export interface PointContext {
  /** Metric.name. */
  metric: string;
  /** The point's index among its metric's data points. */
  index: number;
  /** The resource attributes, rendered as labels once for all the resource's points. */
  resource: readonly Label[];
}
