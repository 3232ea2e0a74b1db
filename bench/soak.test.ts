import { describe, expect, it } from "vitest";
import type { HeapUsage } from "./isolate-heaps.ts";
import { leastSquares, readingTimes, type SoakReading, soakGrowth, soakMet } from "./soak.ts";

const mebibyte = 2 ** 20;
const heap: HeapUsage = { used: 1, total: 2 };
const reading = (at: number, residentMiB: number): SoakReading => ({
  at,
  resident: residentMiB * mebibyte,
  bench: 0,
  heaps: { worker: heap, queue: heap },
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
    // Climbing for the first ten minutes, then flat at 150 MiB.
    const readings = Array.from({ length: 61 }, (_, index) => reading(index * 30, Math.min(100 + index * 2.5, 150)));
    const growth = soakGrowth(readings, 20 * 60);
    expect(growth.from).toBe(600);
    expect(growth.to).toBe(1800);
    expect(growth.percent).toBeCloseTo(0, 10);
    expect(growth.peak).toBe(150 * mebibyte);
    expect(soakMet(growth)).toBe(true);
  });

  it("spans the whole soak when it is shorter than the window", () => {
    const growth = soakGrowth([reading(20, 100), reading(50, 105), reading(80, 110)], 20 * 60);
    expect(growth.from).toBe(20);
    expect(growth.percent).toBeCloseTo(10, 10);
    expect(soakMet(growth)).toBe(false);
  });

  it("fails a flat soak above the memory bound", () => {
    expect(soakMet(soakGrowth([reading(0, 250), reading(30, 250)], 60))).toBe(false);
  });
});
