import { describe, expect, it } from "vitest";
import { WindowClock } from "./window-clock";

const tumbling = new WindowClock({ timeStep: 60, timeWindow: 60, allowedLatenessSeconds: 5 });
const sliding = new WindowClock({ timeStep: 20, timeWindow: 60, allowedLatenessSeconds: 5 });
const uneven = new WindowClock({ timeStep: 25, timeWindow: 60, allowedLatenessSeconds: 0 });

describe("WindowClock", () => {
  it("converts the timing to milliseconds", () => {
    expect(sliding).toMatchObject({ stepMs: 20_000, windowMs: 60_000, paneMs: 20_000, latenessMs: 5_000 });
  });

  it.each([
    { step: 60, window: 60, pane: 60 },
    { step: 20, window: 60, pane: 20 },
    { step: 25, window: 60, pane: 5 },
    { step: 40, window: 100, pane: 20 },
  ])("keeps panes of gcd(step $step s, window $window s) = $pane s", ({ step, window, pane }) => {
    expect(new WindowClock({ timeStep: step, timeWindow: window, allowedLatenessSeconds: 0 }).paneMs).toBe(pane * 1000);
  });

  describe("tumbling windows (step = window)", () => {
    it("puts a datum in the pane that starts at the last multiple of the window", () => {
      expect(tumbling.paneOf(0)).toBe(0);
      expect(tumbling.paneOf(59_999)).toBe(0);
      expect(tumbling.paneOf(60_000)).toBe(60_000);
      expect(tumbling.paneOf(119_999)).toBe(60_000);
    });

    it("holds each pane in one window, which ends at the pane's end", () => {
      expect(tumbling.firstEndHolding(0)).toBe(60_000);
      expect(tumbling.lastEndHolding(0)).toBe(60_000);
      expect(tumbling.firstEndHolding(60_000)).toBe(120_000);
      expect(tumbling.lastEndHolding(60_000)).toBe(120_000);
    });

    it("closes a window once the lateness has passed after its end", () => {
      expect(tumbling.closesAt(60_000)).toBe(65_000);
    });
  });

  describe("sliding windows (step < window)", () => {
    it("holds a pane in window ÷ step windows, from the one ending at the pane's end", () => {
      expect(sliding.paneOf(45_000)).toBe(40_000);
      expect(sliding.firstEndHolding(40_000)).toBe(60_000);
      expect(sliding.lastEndHolding(40_000)).toBe(100_000);
    });

    it("holds the first pane after the epoch in the windows ending at 20, 40 and 60 s", () => {
      expect(sliding.firstEndHolding(0)).toBe(20_000);
      expect(sliding.lastEndHolding(0)).toBe(60_000);
    });

    it("holds a 5 s pane only in the windows of step 25 s that cover all of it", () => {
      expect(uneven.paneOf(52_000)).toBe(50_000);
      expect(uneven.firstEndHolding(50_000)).toBe(75_000);
      expect(uneven.lastEndHolding(50_000)).toBe(100_000);
    });

    it.each([
      [0, 25_000, 50_000],
      [10_000, 25_000, 50_000],
      [15_000, 25_000, 75_000],
      [20_000, 25_000, 75_000],
      [25_000, 50_000, 75_000],
    ])(
      "holds the pane at %i ms in the windows ending from %i to %i ms (step 25 s, window 60 s)",
      (pane, first, last) => {
        expect(uneven.firstEndHolding(pane)).toBe(first);
        expect(uneven.lastEndHolding(pane)).toBe(last);
        expect(pane).toBeGreaterThanOrEqual(first - uneven.windowMs);
        expect(pane + uneven.paneMs).toBeLessThanOrEqual(last);
      },
    );
  });

  describe("isLate", () => {
    it("is not late until the last window holding the datum has closed", () => {
      expect(tumbling.isLate(30_000, 64_999)).toBe(false);
    });

    it("is late from the moment the last window holding the datum closes", () => {
      expect(tumbling.isLate(30_000, 65_000)).toBe(true);
      expect(tumbling.isLate(30_000, 1_000_000)).toBe(true);
    });

    it("goes by the last of the sliding windows, not the first", () => {
      expect(sliding.isLate(45_000, 65_000)).toBe(false);
      expect(sliding.isLate(45_000, 104_999)).toBe(false);
      expect(sliding.isLate(45_000, 105_000)).toBe(true);
    });

    it("counts a datum on a window's end in the next window", () => {
      expect(tumbling.isLate(60_000, 65_000)).toBe(false);
      expect(tumbling.isLate(60_000, 125_000)).toBe(true);
    });

    it("allows no delay at all without lateness", () => {
      expect(uneven.isLate(52_000, 99_999)).toBe(false);
      expect(uneven.isLate(52_000, 100_000)).toBe(true);
    });
  });

  describe("lastClosedEnd", () => {
    it("is the last end at a multiple of the step whose lateness has passed", () => {
      expect(sliding.lastClosedEnd(64_999)).toBe(40_000);
      expect(sliding.lastClosedEnd(65_000)).toBe(60_000);
      expect(sliding.lastClosedEnd(84_999)).toBe(60_000);
      expect(tumbling.lastClosedEnd(125_000)).toBe(120_000);
      expect(uneven.lastClosedEnd(74_999)).toBe(50_000);
      expect(uneven.lastClosedEnd(75_000)).toBe(75_000);
    });

    it("agrees with closesAt on the window it names", () => {
      for (const now of [64_999, 65_000, 99_000, 123_456]) {
        const end = sliding.lastClosedEnd(now);
        expect(sliding.closesAt(end)).toBeLessThanOrEqual(now);
        expect(sliding.closesAt(end + sliding.stepMs)).toBeGreaterThan(now);
      }
    });
  });

  describe("closedEnds", () => {
    it("lists the closed windows holding any of the panes, each once, in order", () => {
      expect(sliding.closedEnds([40_000, 0], 0, 200_000)).toEqual([20_000, 40_000, 60_000, 80_000, 100_000]);
    });

    it("lists only the windows after closedThrough", () => {
      expect(sliding.closedEnds([0, 40_000], 40_000, 200_000)).toEqual([60_000, 80_000, 100_000]);
      expect(sliding.closedEnds([0, 40_000], 100_000, 200_000)).toEqual([]);
    });

    it("stops at the windows that have not closed by now", () => {
      expect(sliding.closedEnds([0, 40_000], 0, 84_999)).toEqual([20_000, 40_000, 60_000]);
      expect(sliding.closedEnds([0, 40_000], 0, 85_000)).toEqual([20_000, 40_000, 60_000, 80_000]);
      expect(sliding.closedEnds([40_000], 0, 64_999)).toEqual([]);
    });

    it("lists the one window of a tumbling pane once it has closed", () => {
      expect(tumbling.closedEnds([60_000], 0, 184_999)).toEqual([120_000]);
      expect(tumbling.closedEnds([60_000], 60_000, 124_999)).toEqual([]);
      expect(tumbling.closedEnds([60_000], 60_000, 125_000)).toEqual([120_000]);
      expect(tumbling.closedEnds([60_000], 120_000, 1_000_000)).toEqual([]);
    });

    it("lists nothing without panes", () => {
      expect(sliding.closedEnds([], 0, 1_000_000)).toEqual([]);
    });
  });

  describe("nextClose", () => {
    it("is when the first window holding a pane closes", () => {
      expect(sliding.nextClose([40_000], 0)).toBe(65_000);
      expect(tumbling.nextClose([60_000], 0)).toBe(125_000);
    });

    it("skips the windows through closedThrough", () => {
      expect(sliding.nextClose([40_000], 60_000)).toBe(85_000);
      expect(sliding.nextClose([40_000], 80_000)).toBe(105_000);
    });

    it("is null when every window holding the panes is through closedThrough", () => {
      expect(sliding.nextClose([40_000], 100_000)).toBeNull();
      expect(tumbling.nextClose([60_000], 120_000)).toBeNull();
    });

    it("is null without panes", () => {
      expect(sliding.nextClose([], 0)).toBeNull();
    });

    it("is the earliest over the panes", () => {
      expect(sliding.nextClose([80_000, 0, 40_000], 20_000)).toBe(45_000);
      expect(sliding.nextClose([80_000, 0], 60_000)).toBe(105_000);
      expect(uneven.nextClose([50_000, 15_000], 25_000)).toBe(50_000);
    });

    it("agrees with closedEnds: the window it names is the first closedEnds lists at that moment", () => {
      const panes = [0, 40_000, 80_000];
      const closedThrough = 40_000;
      const next = sliding.nextClose(panes, closedThrough)!;
      expect(sliding.closedEnds(panes, closedThrough, next - 1)).toEqual([]);
      expect(sliding.closedEnds(panes, closedThrough, next)).toEqual([60_000]);
    });
  });
});
