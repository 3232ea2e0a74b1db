/*
 * The values of a window, kept for percentiles in bounded memory: plain data, so that a window's
 * state can be stored as JSON in SQLite between data.
 *
 * Percentile p (0–100) is the nearest rank: of the sorted values v[1..n], the value of rank
 * max(1, ceil(p/100 · n)). While a summary holds at most `exactLimit` values it keeps them all and
 * the percentile is exact. Beyond that it becomes a sketch (DDSketch): a value v > 0 counts in the
 * bucket i = ceil(log(v) / log(gamma)), gamma = (1 + a) / (1 - a), which holds the values of
 * (gamma^(i-1), gamma^i]; the percentile is the bucket that holds its rank, answered by the
 * bucket's representative 2·gamma^i / (gamma + 1), which is within a = `relativeAccuracy` of every
 * value of the bucket. Negative values count by magnitude in a store of their own, zeros and
 * infinities in counters. The smallest and largest finite values are kept as they are: they answer
 * the first and last finite ranks, and bound every other answer.
 *
 * A store keeps at most `maxBuckets` consecutive buckets; when the values span more, the lowest
 * buckets are collapsed into the lowest one kept. That can only worsen the accuracy for the
 * smallest magnitudes (the values nearest zero), never for the rest.
 *
 * A NaN value makes every percentile NaN, as it makes the Average and the Sum NaN.
 */
import { parseWithNonFinite, stringifyWithNonFinite } from "./non-finite-json";

export const exactLimit = 1_000;
export const relativeAccuracy = 0.01;
export const maxBuckets = 2_048;

/** Consecutive buckets: `counts[k]` is the count of bucket `offset + k`. */
export interface BucketStore {
  offset: number;
  counts: number[];
}

export interface ExactSummary {
  mode: "exact";
  values: number[];
}

export interface SketchSummary {
  mode: "sketch";
  /** Positive values. */
  positive: BucketStore;
  /** Negative values, by magnitude. */
  negative: BucketStore;
  zero: number;
  negativeInfinity: number;
  positiveInfinity: number;
  nan: number;
  /** The smallest and largest finite values (+Infinity and -Infinity while there is none). */
  min: number;
  max: number;
}

export type QuantileSummary = ExactSummary | SketchSummary;

const gamma = (1 + relativeAccuracy) / (1 - relativeAccuracy);
const logGamma = Math.log(gamma);

export function emptySummary(): QuantileSummary {
  return { mode: "exact", values: [] };
}

/** Adds in place, except when the summary outgrows the exact mode: then the new sketch is returned. */
export function addToSummary(summary: QuantileSummary, value: number): QuantileSummary {
  if (summary.mode === "sketch") {
    addToSketch(summary, value);
    return summary;
  }
  if (summary.values.length < exactLimit) {
    summary.values.push(value);
    return summary;
  }
  const sketch = sketchOf(summary.values);
  addToSketch(sketch, value);
  return sketch;
}

/** A new summary of the values of both; neither argument is changed. */
export function mergeSummaries(a: QuantileSummary, b: QuantileSummary): QuantileSummary {
  if (a.mode === "exact" && b.mode === "exact") {
    const values = [...a.values, ...b.values];
    return values.length <= exactLimit ? { mode: "exact", values } : sketchOf(values);
  }
  // The order of the values does not matter to a summary: the sketch goes first.
  if (a.mode === "exact") return mergeSummaries(b, a);
  const sketch = copySketch(a);
  if (b.mode === "exact") {
    for (const value of b.values) addToSketch(sketch, value);
    return sketch;
  }
  mergeStore(sketch.positive, b.positive);
  mergeStore(sketch.negative, b.negative);
  sketch.zero += b.zero;
  sketch.negativeInfinity += b.negativeInfinity;
  sketch.positiveInfinity += b.positiveInfinity;
  sketch.nan += b.nan;
  sketch.min = Math.min(sketch.min, b.min);
  sketch.max = Math.max(sketch.max, b.max);
  return sketch;
}

/** The nearest-rank percentile (see above); NaN when the summary is empty or holds a NaN. */
export function summaryPercentile(summary: QuantileSummary, percentile: number): number {
  if (!(percentile >= 0 && percentile <= 100))
    throw new RangeError(`A percentile is from 0 to 100, not ${percentile}.`);
  return summary.mode === "exact" ? exactPercentile(summary.values, percentile) : sketchPercentile(summary, percentile);
}

/** JSON text; NaN and the infinities, which JSON lacks, are written as the strings "NaN", "Infinity", "-Infinity". */
export function encodeSummary(summary: QuantileSummary): string {
  return stringifyWithNonFinite(summary);
}

export function decodeSummary(text: string): QuantileSummary {
  const summary = parseWithNonFinite(text);
  const mode = typeof summary === "object" && summary !== null && "mode" in summary ? summary.mode : undefined;
  if (mode !== "exact" && mode !== "sketch") throw new Error("The text is not an encoded quantile summary.");
  return summary as QuantileSummary;
}

/** The rank of the nearest-rank percentile among `count` values, from 1. */
function rankOf(percentile: number, count: number): number {
  // Shaved by a relative 1e-12 so that float noise (64.4 · 250 / 100 computed as 161.00000000000003)
  // does not move a whole rank.
  return Math.max(1, Math.ceil(((percentile * count) / 100) * (1 - 1e-12)));
}

function exactPercentile(values: readonly number[], percentile: number): number {
  if (values.length === 0 || values.some(Number.isNaN)) return Number.NaN;
  // Not `a - b`: it is NaN for two equal infinities.
  const sorted = values.toSorted((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[rankOf(percentile, sorted.length) - 1]!;
}

function sketchPercentile(sketch: SketchSummary, percentile: number): number {
  const { positive, negative } = sketch;
  const count = sketch.negativeInfinity + total(negative) + sketch.zero + total(positive) + sketch.positiveInfinity;
  if (sketch.nan > 0 || count === 0) return Number.NaN;
  const clamp = (value: number) => Math.min(Math.max(value, sketch.min), sketch.max);
  let rank = rankOf(percentile, count) - sketch.negativeInfinity;
  if (rank <= 0) return Number.NEGATIVE_INFINITY;
  if (rank === 1) return sketch.min;
  if (rank === count - sketch.negativeInfinity - sketch.positiveInfinity) return sketch.max;
  for (let k = negative.counts.length - 1; k >= 0; k--) {
    rank -= negative.counts[k]!;
    if (rank <= 0) return clamp(-representative(negative.offset + k));
  }
  rank -= sketch.zero;
  if (rank <= 0) return 0;
  for (let k = 0; k < positive.counts.length; k++) {
    rank -= positive.counts[k]!;
    if (rank <= 0) return clamp(representative(positive.offset + k));
  }
  return Number.POSITIVE_INFINITY;
}

function sketchOf(values: readonly number[]): SketchSummary {
  const sketch: SketchSummary = {
    mode: "sketch",
    positive: { offset: 0, counts: [] },
    negative: { offset: 0, counts: [] },
    zero: 0,
    negativeInfinity: 0,
    positiveInfinity: 0,
    nan: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
  };
  for (const value of values) addToSketch(sketch, value);
  return sketch;
}

function copySketch(sketch: SketchSummary): SketchSummary {
  return {
    ...sketch,
    positive: { offset: sketch.positive.offset, counts: [...sketch.positive.counts] },
    negative: { offset: sketch.negative.offset, counts: [...sketch.negative.counts] },
  };
}

function addToSketch(sketch: SketchSummary, value: number): void {
  if (Number.isNaN(value)) sketch.nan++;
  else if (value === Number.POSITIVE_INFINITY) sketch.positiveInfinity++;
  else if (value === Number.NEGATIVE_INFINITY) sketch.negativeInfinity++;
  else {
    sketch.min = Math.min(sketch.min, value);
    sketch.max = Math.max(sketch.max, value);
    if (value === 0) sketch.zero++;
    else addToStore(value > 0 ? sketch.positive : sketch.negative, bucketIndex(Math.abs(value)), 1);
  }
}

function bucketIndex(magnitude: number): number {
  return Math.ceil(Math.log(magnitude) / logGamma);
}

function representative(index: number): number {
  return (2 * gamma ** index) / (gamma + 1);
}

function total(store: BucketStore): number {
  return store.counts.reduce((sum, count) => sum + count, 0);
}

function addToStore(store: BucketStore, index: number, count: number): void {
  cover(store, index, index);
  const k = Math.max(index, store.offset) - store.offset;
  store.counts[k] = (store.counts[k] ?? 0) + count;
}

function mergeStore(into: BucketStore, from: BucketStore): void {
  if (from.counts.length === 0) return;
  cover(into, from.offset, from.offset + from.counts.length - 1);
  from.counts.forEach((count, k) => {
    const index = Math.max(from.offset + k, into.offset) - into.offset;
    into.counts[index] = (into.counts[index] ?? 0) + count;
  });
}

/**
 * Widens the store to hold the buckets `low` to `high`, collapsing the lowest buckets into the
 * lowest one kept when that would be more than `maxBuckets`. A bucket below the store's offset
 * afterwards belongs to the bucket at the offset.
 */
function cover(store: BucketStore, low: number, high: number): void {
  const empty = store.counts.length === 0;
  const currentTop = store.offset + store.counts.length - 1;
  const top = empty ? high : Math.max(high, currentTop);
  const bottom = Math.max(empty ? low : Math.min(low, store.offset), top - maxBuckets + 1);
  if (!empty && bottom === store.offset && top === currentTop) return;
  const counts = new Array<number>(top - bottom + 1).fill(0);
  store.counts.forEach((count, k) => {
    const index = Math.max(store.offset + k, bottom) - bottom;
    counts[index] = (counts[index] ?? 0) + count;
  });
  store.offset = bottom;
  store.counts = counts;
}
