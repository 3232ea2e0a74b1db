import { describe, expect, it } from "vitest";
import { readingTimes, slope } from "./soak.ts";

describe("the soak's readings", () => {
  it("are taken from the warm-up's end, every few seconds, and at the end", () => {
    expect(readingTimes(20, 60, 15)).toEqual([20, 35, 50, 65, 80]);
    expect(readingTimes(20, 12, 5)).toEqual([20, 25, 30, 32]);
  });

  it("give a least-squares slope", () => {
    const points = [0, 5, 10, 15].map((at) => ({ at, value: 100 + 0.5 * at + (at === 5 ? 1 : at === 10 ? -1 : 0) }));
    expect(slope(points)).toBeCloseTo(0.5 - 0.04, 10);
    expect(slope([{ at: 0, value: 1 }])).toBeNaN();
  });
});
