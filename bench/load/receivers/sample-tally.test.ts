import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SampleTally } from "./sample-tally.ts";

describe("the sample tally", () => {
  it("counts each sequence number once, however the payloads split and repeat them", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(5_000), { maxLength: 20 }), { maxLength: 20 }), (payloads) => {
        const tally = new SampleTally();
        for (const [index, values] of payloads.entries()) tally.record(values, index + 1);
        const all = payloads.flat();
        const distinct = new Set(all).size;
        expect([tally.distinct, tally.duplicates, tally.unreadable]).toEqual([distinct, all.length - distinct, 0]);
      }),
    );
  });

  it("keeps when the last new sample came", () => {
    const tally = new SampleTally();
    tally.record([1, 2], 10);
    tally.record([2], 20);
    expect(tally.lastArrival).toBe(10);
    tally.record([3], 30);
    expect(tally.lastArrival).toBe(30);
  });

  it("counts unreadable payloads and values that are no sequence number", () => {
    const tally = new SampleTally();
    tally.record(undefined);
    tally.record([-1, 0.5, Number.NaN, 4]);
    expect([tally.distinct, tally.unreadable]).toEqual([1, 4]);
  });
});
