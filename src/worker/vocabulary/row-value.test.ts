import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatumRow } from "./datum";
import { rowDouble, rowValue } from "./row-value";

describe("rowDouble", () => {
  it("reads the xsd:double spellings of non-finite values, and gives numbers as they are", () => {
    const values: DatumRow[2][] = ["NaN", "INF", "-INF", -0, 1.5];
    expect(values.map(rowDouble)).toEqual([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1.5]);
  });

  it("gives back every double as a row carries it", () => {
    fc.assert(
      fc.property(fc.double(), (value) => {
        expect(rowDouble(rowValue(value))).toBe(value);
      }),
    );
  });
});
