import type { Label, LineField } from "../../vocabulary/datum.ts";

/**
 * What every agent protocol's reader yields: points that share one label set, before the label set
 * becomes a resourceId (series-data.ts). Readers keep labels as sent; the mapping picks the primary
 * label, drops the labels the request names, and builds the key once for all the points.
 */
export interface LabelledPoints {
  /**
   * Label pairs in the order sent: line-protocol tags, Prometheus labels but `__name__`, OTLP
   * data-point attributes. Frozen when a reader gives the same labels to many series (remote write's
   * label sets sent again): series-data then keeps the key it builds of them.
   */
  labels: readonly Label[];
  /**
   * Pairs that may serve as the primary label but are no labels otherwise (OTLP's resource
   * attributes), consulted after `labels`.
   */
  primaryOnly?: readonly Label[];
  /** Where the points came from in the request, for the protocol's error message (a line number, a series index). */
  origin: number;
  points: SeriesPoint[];
}

/** One value of one metric at one time. */
export interface SeriesPoint {
  /** The metric (family) name, with the protocol's suffixes (`cpu.usage_idle`, `http_latency.count`). */
  metric: string;
  value: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** Line protocol: the measurement, field key and type the point came as (one array for all points of them in a request). */
  line?: LineField;
}

/** Something of the request the reader did not turn into points, with why, named the protocol's way. */
export interface RefusedPart {
  /** A line number (line protocol), a series or data-point index (remote write, OTLP). */
  origin: number;
  message: string;
}
