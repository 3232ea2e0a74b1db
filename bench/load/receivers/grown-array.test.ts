import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grownToHold } from "./grown-array.ts";

describe("grownToHold", () => {
  it("returns the array itself when it holds the length", () => {
    const array = new Uint8Array(8);
    expect(grownToHold(array, 8)).toBe(array);
  });

  it("keeps the elements and the type, doubling to hold the length, within the cap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1, max: 5_000 }), (size, length) => {
        const array = Float64Array.from({ length: size }, (_, index) => index + 0.5);
        const grown = grownToHold(array, length, 4_096);
        expect(grown).toBeInstanceOf(Float64Array);
        expect(grown.length).toBeGreaterThanOrEqual(Math.min(length, 4_096));
        expect(grown.length).toBeLessThanOrEqual(Math.max(size, 4_096));
        expect([...grown.subarray(0, size)]).toEqual([...array]);
      }),
    );
  });
});
