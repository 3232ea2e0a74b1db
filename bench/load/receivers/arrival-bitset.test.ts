import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArrivalBitset } from "./arrival-bitset.ts";

describe("ArrivalBitset", () => {
  it("tells a datum's first arrival from its repeats, as a set would, across growth", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 100_000 }), { maxLength: 300 }), (sequences) => {
        const bitset = new ArrivalBitset();
        const seen = new Set<number>();
        for (const sequence of sequences) {
          expect(bitset.markArrived(sequence)).toBe(seen.has(sequence));
          seen.add(sequence);
        }
      }),
    );
  });
});
