import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { earliestPlausibleMs, isFarFromNow, latestPlausibleAheadMs } from "./far-from-now";

const now = Date.UTC(2026, 5, 1, 12);

describe("isFarFromNow", () => {
  it.each([
    ["seconds read as milliseconds", 1_780_000_000, true],
    ["milliseconds read as nanoseconds' thousandths", 1_780_000_000_000_000, true],
    ["the last moment of 1999", earliestPlausibleMs - 1, true],
    ["the first moment of 2000", earliestPlausibleMs, false],
    ["now", now, false],
    ["a day ahead", now + latestPlausibleAheadMs, false],
    ["a day and a millisecond ahead", now + latestPlausibleAheadMs + 1, true],
  ])("%s: %s", (_case, timestamp, far) => {
    expect(isFarFromNow(timestamp, now)).toBe(far);
  });

  it("holds every moment from 2000 to a day ahead near, and none outside", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (timestamp) => {
        const near = timestamp >= earliestPlausibleMs && timestamp <= now + latestPlausibleAheadMs;
        expect(isFarFromNow(timestamp, now)).toBe(!near);
      }),
    );
  });
});
