import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LatencyHistogram } from "./latency-histogram.ts";

/** The element at ⌊n × fraction⌋ of the sorted latencies, as the bench computed it from every latency kept. */
function exactPercentile(latencies: readonly number[], fraction: number): number {
  const sorted = Float64Array.from(latencies).sort();
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

const fractions = fc.oneof(fc.constantFrom(0, 0.5, 0.99, 1), fc.double({ min: 0, max: 1, noNaN: true }));

describe("LatencyHistogram", () => {
  it("gives the exact percentile of whole-millisecond latencies below its fine limit, over histograms combined", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat({ max: 5_000 }), { maxLength: 200 }), { minLength: 1, maxLength: 4 }),
        fractions,
        (perObserver, fraction) => {
          const histograms = perObserver.map((latencies) => {
            const histogram = new LatencyHistogram();
            for (const latency of latencies) histogram.record(latency);
            return histogram;
          });
          const combined = LatencyHistogram.combined(histograms);
          expect(combined.count).toBe(perObserver.flat().length);
          expect(combined.percentile(fraction)).toBe(exactPercentile(perObserver.flat(), fraction));
        },
      ),
    );
  });

  it("above its fine limit, gives the exact percentile rounded down to the second", () => {
    const fineLimit = 2_000;
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 20_000 }), { minLength: 1, maxLength: 300 }),
        fractions,
        (latencies, fraction) => {
          const histogram = new LatencyHistogram(fineLimit);
          for (const latency of latencies) histogram.record(latency);
          const exact = exactPercentile(latencies, fraction);
          const expected = exact < fineLimit ? exact : fineLimit + Math.floor((exact - fineLimit) / 1_000) * 1_000;
          expect(histogram.percentile(fraction)).toBe(expected);
        },
      ),
    );
  });

  it("has no percentile when empty, counts a latency below zero as zero, and will not add up unlike histograms", () => {
    expect(new LatencyHistogram().percentile(0.5)).toBeNaN();
    const histogram = new LatencyHistogram();
    histogram.record(-3);
    expect(histogram.percentile(0.5)).toBe(0);
    expect(() => LatencyHistogram.combined([histogram, new LatencyHistogram(1_000)])).toThrow();
  });

  it("keeps a latency of ten minutes and more, to the second", () => {
    const histogram = new LatencyHistogram();
    histogram.record(599_999);
    histogram.record(3_600_500);
    expect(histogram.percentile(0)).toBe(599_999);
    expect(histogram.percentile(1)).toBe(3_600_000);
  });
});
