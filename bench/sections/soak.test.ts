import { describe, expect, it } from "vitest";
import { leastSquares, readingTimes, type SoakReading, soakGrowth, soakMet } from "./soak.ts";

const mebibyte = 2 ** 20;
const reading = (at: number, liveMiB: number): SoakReading => ({
  at,
  live: liveMiB * mebibyte,
  heap: { used: 2 * liveMiB * mebibyte, total: 3 * liveMiB * mebibyte },
});

describe("the soak's readings", () => {
  it("are taken from the warm-up's end, every few seconds, and at the end", () => {
    expect(readingTimes(20, 60, 15)).toEqual([20, 35, 50, 65, 80]);
    expect(readingTimes(20, 12, 5)).toEqual([20, 25, 30, 32]);
  });

  it("give a least-squares line", () => {
    const points = [0, 5, 10, 15].map((at) => ({ at, value: 100 + 0.5 * at + (at === 5 ? 1 : at === 10 ? -1 : 0) }));
    const line = leastSquares(points);
    expect(line.slope).toBeCloseTo(0.5 - 0.04, 10);
    expect(line.valueAt(7.5)).toBeCloseTo(103.75, 10);
    expect(leastSquares([{ at: 0, value: 1 }]).slope).toBeNaN();
  });
});

describe("the soak's growth", () => {
  it("is judged over the last window only, by the line through its readings", () => {
    // Climbing for the first ten minutes, then flat at 30 MiB.
    const readings = Array.from({ length: 61 }, (_, index) => reading(index * 30, Math.min(10 + index, 30)));
    const growth = soakGrowth(readings, 20 * 60);
    expect(growth.from).toBe(600);
    expect(growth.to).toBe(1800);
    expect(growth.percent).toBeCloseTo(0, 10);
    expect(growth.peak).toBe(30 * mebibyte);
    expect(soakMet(growth)).toBe(true);
  });

  it("spans the whole soak when it is shorter than the window", () => {
    const growth = soakGrowth([reading(20, 20), reading(50, 21), reading(80, 22)], 20 * 60);
    expect(growth.from).toBe(20);
    expect(growth.percent).toBeCloseTo(10, 10);
    expect(soakMet(growth)).toBe(false);
  });

  it("fails a flat soak above the memory bound", () => {
    expect(soakMet(soakGrowth([reading(0, 80), reading(30, 80)], 60))).toBe(false);
  });
});
