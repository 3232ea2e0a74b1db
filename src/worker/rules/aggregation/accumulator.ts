/*
 * What a window keeps of its values to answer its aggregates: count, sum, min and max always, and
 * a quantile summary of the values only when a percentile is asked for (`keepValues`), since that
 * is the one aggregate that needs more than a few numbers.
 *
 * NaN values count in Count and make every other aggregate NaN (IEEE sums, Math.min/Math.max).
 * Of an empty accumulator: Count and Sum are 0, the others NaN.
 */
import type { AggregateFunction } from "../document/rule-schema";
import type { AggregateCall } from "../expressions/value-expression";
import {
  addToSummary,
  emptySummary,
  mergeSummaries,
  type QuantileSummary,
  summaryPercentile,
} from "./quantile-summary";

export interface Accumulator {
  count: number;
  sum: number;
  min: number;
  max: number;
  values: QuantileSummary | null;
}

export function newAccumulator(keepValues: boolean): Accumulator {
  return {
    count: 0,
    sum: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
    values: keepValues ? emptySummary() : null,
  };
}

export function addToAccumulator(acc: Accumulator, value: number): void {
  acc.count++;
  acc.sum += value;
  acc.min = Math.min(acc.min, value);
  acc.max = Math.max(acc.max, value);
  if (acc.values) acc.values = addToSummary(acc.values, value);
}

/**
 * Adds the values of `from` to `into`. The values are merged when both keep them; when `from` has
 * values it did not keep, `into` stops keeping its own, which would no longer be all of them.
 */
export function mergeAccumulators(into: Accumulator, from: Accumulator): void {
  if (from.count === 0) return;
  into.count += from.count;
  into.sum += from.sum;
  into.min = Math.min(into.min, from.min);
  into.max = Math.max(into.max, from.max);
  into.values = into.values && from.values ? mergeSummaries(into.values, from.values) : null;
}

/** `percentile` (0–100) is required for Percentile, which also requires an accumulator that keeps its values. */
export function aggregateValue(acc: Accumulator, fn: AggregateFunction, percentile?: number): number {
  switch (fn) {
    case "Count":
      return acc.count;
    case "Sum":
      return acc.sum;
    case "Average":
      return acc.sum / acc.count;
    case "Min":
      return acc.count === 0 ? Number.NaN : acc.min;
    case "Max":
      return acc.count === 0 ? Number.NaN : acc.max;
    case "Percentile":
      if (percentile === undefined) throw new Error("Percentile needs the percentile to compute.");
      if (acc.values === null) throw new Error("Percentile needs an accumulator that keeps its values.");
      return summaryPercentile(acc.values, percentile);
  }
}

const aggregateOfCall = {
  AVG: "Average",
  SUM: "Sum",
  COUNT: "Count",
  MIN: "Min",
  MAX: "Max",
  PERCENTILE: "Percentile",
} as const satisfies Record<AggregateCall["fn"], AggregateFunction>;

/** The value of a `value` expression's aggregate call, e.g. SUM(METRIC), over the accumulator. */
export function callValue(acc: Accumulator, call: AggregateCall): number {
  return aggregateValue(acc, aggregateOfCall[call.fn], call.fn === "PERCENTILE" ? call.percentile : undefined);
}
