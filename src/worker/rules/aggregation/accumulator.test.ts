import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Accumulator,
  addToAccumulator,
  aggregateValue,
  callValue,
  mergeAccumulators,
  newAccumulator,
} from "./accumulator";
import { exactLimit } from "./quantile-summary";

function accumulatorOf(values: readonly number[], keepValues = true): Accumulator {
  const acc = newAccumulator(keepValues);
  for (const value of values) addToAccumulator(acc, value);
  return acc;
}

const list = [35, 50, 15, 40, 20];

describe("aggregateValue", () => {
  const acc = accumulatorOf(list);

  it.each([
    ["Average", 32],
    ["Sum", 160],
    ["Count", 5],
    ["Min", 15],
    ["Max", 50],
  ] as const)("computes %s", (fn, expected) => {
    expect(aggregateValue(acc, fn)).toBe(expected);
  });

  it.each([
    [30, 20],
    [50, 35],
    [95, 50],
    [0, 15],
  ])("computes the Percentile %d as the nearest rank: %d", (percentile, expected) => {
    expect(aggregateValue(acc, "Percentile", percentile)).toBe(expected);
  });

  it("starts empty: no values, min +Infinity and max -Infinity", () => {
    expect(newAccumulator(true)).toEqual({
      count: 0,
      sum: 0,
      min: Number.POSITIVE_INFINITY,
      max: Number.NEGATIVE_INFINITY,
      values: { mode: "exact", values: [] },
    });
    expect(newAccumulator(false).values).toBeNull();
  });

  it("answers Count and Sum of nothing with 0, and the others with NaN", () => {
    const empty = newAccumulator(true);
    expect(aggregateValue(empty, "Count")).toBe(0);
    expect(aggregateValue(empty, "Sum")).toBe(0);
    for (const fn of ["Average", "Min", "Max"] as const) expect(aggregateValue(empty, fn)).toBeNaN();
    expect(aggregateValue(empty, "Percentile", 50)).toBeNaN();
  });

  it("counts a NaN value, which makes every other aggregate NaN", () => {
    const withNaN = accumulatorOf([1, Number.NaN, 3]);
    expect(aggregateValue(withNaN, "Count")).toBe(3);
    for (const fn of ["Average", "Sum", "Min", "Max"] as const) expect(aggregateValue(withNaN, fn)).toBeNaN();
    expect(aggregateValue(withNaN, "Percentile", 50)).toBeNaN();
  });

  it("refuses a Percentile without its percentile, or without values", () => {
    expect(() => aggregateValue(acc, "Percentile")).toThrow(Error);
    expect(() => aggregateValue(accumulatorOf(list, false), "Percentile", 50)).toThrow(Error);
  });
});

describe("callValue", () => {
  const acc = accumulatorOf(list);

  it.each([
    [{ fn: "AVG" }, 32],
    [{ fn: "SUM" }, 160],
    [{ fn: "COUNT" }, 5],
    [{ fn: "MIN" }, 15],
    [{ fn: "MAX" }, 50],
    [{ fn: "PERCENTILE", percentile: 40 }, 20],
  ] as const)("answers %o", (call, expected) => {
    expect(callValue(acc, call)).toBe(expected);
  });
});

describe("mergeAccumulators", () => {
  it("equals adding all values into one", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 800 }),
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 800 }),
        (first, second) => {
          const merged = accumulatorOf(first);
          mergeAccumulators(merged, accumulatorOf(second));
          const single = accumulatorOf([...first, ...second]);
          expect({ ...merged, values: null }).toEqual({ ...single, values: null });
          for (const percentile of [0, 25, 50, 90, 100]) {
            expect(aggregateValue(merged, "Percentile", percentile)).toBe(
              aggregateValue(single, "Percentile", percentile),
            );
          }
        },
      ),
    );
  });

  it("merges values beyond the exact limit", () => {
    const values = Array.from({ length: exactLimit }, (_, i) => i + 1);
    const merged = accumulatorOf(values);
    mergeAccumulators(merged, accumulatorOf(values));
    expect(merged.values?.mode).toBe("sketch");
    expect(aggregateValue(merged, "Count")).toBe(2 * exactLimit);
    expect(aggregateValue(merged, "Percentile", 100)).toBe(exactLimit);
    expect(aggregateValue(merged, "Percentile", 0)).toBe(1);
  });

  it("stops keeping values when it merges values that were not kept", () => {
    const into = accumulatorOf([1, 2]);
    mergeAccumulators(into, accumulatorOf([3], false));
    expect(into.values).toBeNull();
    expect(aggregateValue(into, "Max")).toBe(3);
  });

  it("keeps its values when it merges an empty accumulator that keeps none", () => {
    const into = accumulatorOf([1, 2]);
    mergeAccumulators(into, newAccumulator(false));
    expect(aggregateValue(into, "Percentile", 100)).toBe(2);
  });
});
