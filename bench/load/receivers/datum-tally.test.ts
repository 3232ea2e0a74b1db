import { describe, expect, it } from "vitest";
import { DatumTally } from "./datum-tally.ts";

const payload = (...values: number[]) =>
  JSON.stringify(values.map((value) => ({ resourceId: "r", metric: `m${value % 3}`, value, timestamp: 1 })));

describe("DatumTally", () => {
  it("counts each sequence number once, whatever its metric, and duplicates and unreadable data apart", () => {
    const tally = new DatumTally();
    tally.record(payload(0, 1, 2), 1_000);
    tally.record(payload(2, 3), 1_010);
    tally.record(payload(1.5, -1), 1_020);
    tally.record("not json", 1_030);
    expect([tally.distinct, tally.duplicates, tally.unreadable]).toEqual([4, 1, 3]);
    // Only payloads with new data count as arrivals.
    expect(tally.lastArrival).toBe(1_010);
  });

  it("takes the steady span between the arrivals that pass 10 % and 90 % of what was received", () => {
    const tally = new DatumTally();
    for (let second = 0; second < 10; second++) {
      tally.record(payload(...Array.from({ length: 10 }, (_, index) => second * 10 + index)), 5_000 + second * 1_000);
    }
    // 10 data at 5 s pass 10 %; 90 data at 13 s pass 90 %: 80 data over 8 s.
    expect(tally.steadySpan()).toEqual({ data: 80, seconds: 8 });
    expect(tally.steadySpan(0, 1)).toEqual({ data: 90, seconds: 9 });
  });

  it("has no span before data or when one payload holds them all", () => {
    expect(new DatumTally().steadySpan()).toEqual({ data: 0, seconds: 0 });
    const tally = new DatumTally();
    tally.record(payload(0, 1, 2, 3), 1_000);
    expect(tally.steadySpan()).toEqual({ data: 0, seconds: 0 });
  });
});
