import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addToSummary,
  decodeSummary,
  emptySummary,
  encodeSummary,
  exactLimit,
  maxBuckets,
  mergeSummaries,
  type QuantileSummary,
  relativeAccuracy,
  type SketchSummary,
  summaryPercentile,
} from "./quantile-summary";

/** A seeded PRNG (mulberry32), so that every run draws the same values. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function summaryOf(values: Iterable<number>): QuantileSummary {
  let summary = emptySummary();
  for (const value of values) summary = addToSummary(summary, value);
  return summary;
}

/** The nearest-rank percentile, computed the obvious way, in integers for percentiles of up to 3 decimals. */
function nearestRank(values: ArrayLike<number>, percentile: number): number {
  const sorted = Array.from(values).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.ceil((Math.round(percentile * 1_000) * sorted.length) / 100_000);
  return sorted[Math.max(1, rank) - 1]!;
}

function asSketch(summary: QuantileSummary): SketchSummary {
  if (summary.mode !== "sketch") throw new Error("expected a sketch");
  return summary;
}

/** Within the relative accuracy, with room for the rounding of the bucket's representative. */
function expectClose(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * relativeAccuracy * (1 + 1e-9));
}

const range = (count: number, value: (index: number) => number) => Array.from({ length: count }, (_, i) => value(i));

describe("exact mode", () => {
  const small = summaryOf([35, 50, 15, 40, 20]);

  it.each([
    [0, 15],
    [5, 15],
    [20, 15],
    [21, 20],
    [30, 20],
    [40, 20],
    [50, 35],
    [75, 40],
    [80, 40],
    [81, 50],
    [100, 50],
  ])("gives the nearest rank: p%d of [15, 20, 35, 40, 50] is %d", (percentile, expected) => {
    expect(summaryPercentile(small, percentile)).toBe(expected);
  });

  it("is NaN when empty", () => {
    expect(summaryPercentile(emptySummary(), 50)).toBeNaN();
  });

  it("refuses a percentile outside 0–100", () => {
    expect(() => summaryPercentile(small, 101)).toThrow(RangeError);
    expect(() => summaryPercentile(small, -1)).toThrow(RangeError);
    expect(() => summaryPercentile(small, Number.NaN)).toThrow(RangeError);
  });

  it("does not let float noise move a rank", () => {
    const thousand = summaryOf(range(1_000, (i) => i + 1));
    expect(summaryPercentile(thousand, 99.9)).toBe(999);
    // 64.4 · 250 / 100 is computed as 161.00000000000003.
    const quarterThousand = summaryOf(range(250, (i) => i + 1));
    expect(summaryPercentile(quarterThousand, 64.4)).toBe(161);
    const ten = summaryOf(range(10, (i) => i + 1));
    expect(summaryPercentile(ten, 70)).toBe(7);
  });

  it("orders negatives, zeros and infinities", () => {
    const summary = summaryOf([3, Number.NEGATIVE_INFINITY, -2, 0, Number.POSITIVE_INFINITY, -0.5, 0]);
    expect([0, 15, 30, 45, 60, 75, 90, 100].map((p) => summaryPercentile(summary, p))).toEqual([
      Number.NEGATIVE_INFINITY,
      -2,
      -0.5,
      0,
      0,
      3,
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
    ]);
  });

  it("makes every percentile NaN once it holds a NaN", () => {
    const summary = summaryOf([1, 2, Number.NaN, 4]);
    expect(summaryPercentile(summary, 0)).toBeNaN();
    expect(summaryPercentile(summary, 100)).toBeNaN();
  });

  it("stays exact up to the limit, and becomes a sketch beyond it", () => {
    const full = summaryOf(range(exactLimit, (i) => i));
    expect(full.mode).toBe("exact");
    expect(addToSummary(full, 1).mode).toBe("sketch");
  });

  it("agrees with the obvious nearest rank (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true }), { minLength: 1, maxLength: exactLimit }),
        fc.integer({ min: 0, max: 100 }),
        (values, percentile) => {
          expect(summaryPercentile(summaryOf(values), percentile)).toBe(nearestRank(values, percentile));
        },
      ),
    );
  });
});

describe("sketch mode", () => {
  it("keeps p50, p95 and p99 within 1 % of the exact value, for log-uniform values over 6 decades", () => {
    const random = seeded(42);
    const values = range(100_000, () => 10 ** (6 * random() - 3));
    const summary = summaryOf(values);
    expect(summary.mode).toBe("sketch");
    for (const percentile of [50, 95, 99]) {
      expectClose(summaryPercentile(summary, percentile), nearestRank(values, percentile));
    }
  });

  it("keeps every percentile within 1 % for exponential values, and p0 and p100 exact", () => {
    const random = seeded(7);
    const values = range(100_000, () => -Math.log(1 - random()) * 250);
    const summary = summaryOf(values);
    for (const percentile of [1, 10, 25, 50, 75, 90, 95, 99, 99.9]) {
      expectClose(summaryPercentile(summary, percentile), nearestRank(values, percentile));
    }
    expect(summaryPercentile(summary, 0)).toBe(values.reduce((min, value) => Math.min(min, value)));
    expect(summaryPercentile(summary, 100)).toBe(values.reduce((max, value) => Math.max(max, value)));
  });

  it("keeps negatives, zeros and infinities in their places", () => {
    const random = seeded(3);
    const values = range(10_000, (i) => {
      if (i % 10 === 0) return 0;
      const magnitude = 10 ** (4 * random());
      return random() < 0.5 ? -magnitude : magnitude;
    });
    const withInfinities = [...values, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
    const summary = summaryOf(withInfinities);
    expect(summary.mode).toBe("sketch");
    for (const percentile of [1, 10, 30, 45, 50, 55, 70, 90, 99]) {
      expectClose(summaryPercentile(summary, percentile), nearestRank(withInfinities, percentile));
    }
    expect(summaryPercentile(summary, 0)).toBe(Number.NEGATIVE_INFINITY);
    expect(summaryPercentile(summary, 100)).toBe(Number.POSITIVE_INFINITY);
    expect(summaryPercentile(summaryOf(range(2_000, (i) => (i % 2 === 0 ? 0 : -1))), 75)).toBe(0);
  });

  it("makes every percentile NaN once it holds a NaN", () => {
    const summary = addToSummary(summaryOf(range(2_000, (i) => i)), Number.NaN);
    expect(summary.mode).toBe("sketch");
    expect(summaryPercentile(summary, 50)).toBeNaN();
  });

  it("stays bounded over a million values spanning the whole range of doubles", () => {
    const random = seeded(1);
    const values = new Float64Array(1_000_000);
    let summary = emptySummary();
    for (let i = 0; i < values.length; i++) {
      const magnitude = 10 ** (600 * random() - 300);
      values[i] = i % 3 === 0 ? -magnitude : magnitude;
      summary = addToSummary(summary, values[i]!);
    }
    const sketch = asSketch(summary);
    expect(sketch.positive.counts.length).toBeLessThanOrEqual(maxBuckets);
    expect(sketch.negative.counts.length).toBeLessThanOrEqual(maxBuckets);
    // Two stores of at most maxBuckets counts, each count at most 7 digits and a comma.
    expect(encodeSummary(summary).length).toBeLessThan(40_000);
    // Collapsing merges the smallest magnitudes only: both ends of the distribution keep their accuracy.
    values.sort();
    for (const percentile of [0.1, 0.5, 99, 99.9]) {
      expectClose(summaryPercentile(summary, percentile), nearestRank(values, percentile));
    }
  });

  it("collapses only the smallest magnitudes", () => {
    // 30 decades are more than maxBuckets buckets: the values above the lowest kept bucket stay within 1 %.
    const values = range(5_000, (i) => 10 ** ((i * 30) / 5_000));
    const summary = asSketch(summaryOf(values));
    expect(summary.positive.counts.length).toBe(maxBuckets);
    const lowestKept = 10 ** (30 - maxBuckets * Math.log10((1 + relativeAccuracy) / (1 - relativeAccuracy)));
    for (const percentile of [50, 75, 90, 99]) {
      expect(nearestRank(values, percentile)).toBeGreaterThan(lowestKept);
      expectClose(summaryPercentile(summary, percentile), nearestRank(values, percentile));
    }
    expect(summaryPercentile(summary, 10)).toBeGreaterThan(lowestKept / 1.1);
    expect(nearestRank(values, 10)).toBeLessThan(lowestKept / 1e6);
  });
});

describe("mergeSummaries", () => {
  it("stays exact while both together hold at most the limit", () => {
    const merged = mergeSummaries(summaryOf([1, 2, 3]), summaryOf([4, 5]));
    expect(merged).toEqual({ mode: "exact", values: [1, 2, 3, 4, 5] });
  });

  it("becomes a sketch when two exact summaries together cross the limit, and leaves them unchanged", () => {
    const a = summaryOf(range(600, (i) => i + 1));
    const b = summaryOf(range(600, (i) => i + 601));
    const merged = mergeSummaries(a, b);
    expect(merged.mode).toBe("sketch");
    expect(a).toEqual(summaryOf(range(600, (i) => i + 1)));
    expect(b).toEqual(summaryOf(range(600, (i) => i + 601)));
    for (const percentile of [0, 10, 50, 90, 100]) {
      expectClose(
        summaryPercentile(merged, percentile),
        nearestRank(
          range(1_200, (i) => i + 1),
          percentile,
        ),
      );
    }
  });

  it("merges two sketches, and a sketch with an exact summary, as if all values were added to one", () => {
    const random = seeded(11);
    const first = range(5_000, () => 10 ** (5 * random()));
    const second = range(3_000, () => -(10 ** (2 * random())));
    const third = [0, 0, 7, Number.POSITIVE_INFINITY];
    const merged = mergeSummaries(mergeSummaries(summaryOf(first), summaryOf(second)), summaryOf(third));
    const reversed = mergeSummaries(summaryOf(third), mergeSummaries(summaryOf(second), summaryOf(first)));
    const single = summaryOf([...first, ...second, ...third]);
    for (const percentile of [0, 1, 20, 37.5, 50, 80, 99, 100]) {
      const expected = summaryPercentile(single, percentile);
      expect(summaryPercentile(merged, percentile)).toBe(expected);
      expect(summaryPercentile(reversed, percentile)).toBe(expected);
    }
  });

  it("merges sketches whose buckets span more than maxBuckets together", () => {
    const low = summaryOf(range(2_000, (i) => 10 ** (-100 + i / 100)));
    const high = summaryOf(range(2_000, (i) => 10 ** (80 + i / 100)));
    const merged = asSketch(mergeSummaries(low, high));
    expect(merged.positive.counts.length).toBe(maxBuckets);
    expect(merged.positive.counts.reduce((sum, count) => sum + count, 0)).toBe(4_000);
    expectClose(summaryPercentile(merged, 75), 10 ** (80 + 999 / 100));
  });
});

describe("encodeSummary and decodeSummary", () => {
  it("round-trip an exact summary, NaN and infinities included", () => {
    const summary = summaryOf([1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -3]);
    const decoded = decodeSummary(encodeSummary(summary));
    expect(decoded).toEqual(summary);
    if (decoded.mode !== "exact") throw new Error("expected an exact summary");
    expect(decoded.values[1]).toBeNaN();
    expect(decoded.values[2]).toBe(Number.POSITIVE_INFINITY);
    expect(decoded.values[3]).toBe(Number.NEGATIVE_INFINITY);
  });

  it("round-trip a sketch, and the decoded sketch goes on counting", () => {
    const random = seeded(5);
    const values = range(3_000, () => 10 ** (3 * random()) - 10);
    const summary = summaryOf([...values, Number.POSITIVE_INFINITY]);
    const text = encodeSummary(summary);
    const decoded = decodeSummary(text);
    expect(decoded).toEqual(summary);
    expect(JSON.parse(text)).toMatchObject({ mode: "sketch", positiveInfinity: 1 });
    const more = addToSummary(decoded, 5);
    expect(summaryPercentile(more, 50)).toBe(summaryPercentile(addToSummary(summary, 5), 50));
  });

  it("round-trip an empty sketch's bounds", () => {
    const sketch = asSketch(summaryOf(range(1_001, () => Number.NaN)));
    expect(sketch.min).toBe(Number.POSITIVE_INFINITY);
    expect(decodeSummary(encodeSummary(sketch))).toEqual(sketch);
  });

  it("refuses text that is not a summary", () => {
    expect(() => decodeSummary('{"values":[]}')).toThrow("not an encoded quantile summary");
    expect(() => decodeSummary("null")).toThrow("not an encoded quantile summary");
  });
});
