import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArrivalCounts } from "./arrival-counts.ts";

const arrivalTimes = fc.array(fc.integer({ min: 1_700_000_000_000, max: 1_700_000_005_000 }), { maxLength: 300 });
const windowEdge = fc.double({ min: 1_699_999_999_000, max: 1_700_000_006_000, noNaN: true });

const exactCount = (arrivals: readonly number[], from: number, to: number) =>
  arrivals.filter((arrival) => arrival >= from && arrival < to).length;

function counted(arrivals: readonly number[], width?: number): ArrivalCounts {
  const counts = new ArrivalCounts(width);
  for (const arrival of arrivals) counts.record(arrival);
  return counts;
}

describe("ArrivalCounts", () => {
  it("counts exactly the arrivals within a window, with buckets of a millisecond, whatever the arrivals' order", () => {
    fc.assert(
      fc.property(arrivalTimes, windowEdge, windowEdge, (arrivals, from, to) => {
        expect(counted(arrivals, 1).countWithin(from, to)).toBeCloseTo(exactCount(arrivals, from, to), 9);
      }),
    );
  });

  it("misses the exact count by no more than the arrivals in the buckets the window's edges cut", () => {
    const width = 10;
    fc.assert(
      fc.property(arrivalTimes, windowEdge, windowEdge, (arrivals, from, to) => {
        const edgeBucket = (edge: number) => Math.floor(Math.ceil(edge) / width);
        const atEdges = arrivals.filter((arrival) =>
          [edgeBucket(from), edgeBucket(to)].includes(Math.floor(arrival / width)),
        ).length;
        const error = counted(arrivals, width).countWithin(from, to) - exactCount(arrivals, from, to);
        expect(Math.abs(error)).toBeLessThanOrEqual(atEdges + 1e-9);
      }),
    );
  });

  it("is exact for windows whose edges fall on its buckets' bounds", () => {
    fc.assert(
      fc.property(
        arrivalTimes,
        fc.integer({ min: 169_999_999_900, max: 170_000_000_600 }),
        fc.nat({ max: 600 }),
        (arrivals, firstBucket, buckets) => {
          const from = firstBucket * 10;
          const to = from + buckets * 10;
          expect(counted(arrivals).countWithin(from, to)).toBeCloseTo(exactCount(arrivals, from, to), 9);
        },
      ),
    );
  });

  it("counts arrivals spread evenly over a cut bucket by the share of it inside the window", () => {
    const counts = counted(Array.from({ length: 10 }, (_, offset) => 1_000 + offset));
    expect(counts.countWithin(1_004, 2_000)).toBe(6);
    expect(counts.countWithin(1_003.5, 1_007.2)).toBe(4);
  });
});
