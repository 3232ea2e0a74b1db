import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { usage } from "../common/usage";
import { mergeShards } from "./shard-merge";
import { figures, snapshot } from "./summary-fixtures";
import { dataPerSecond, perMinuteAt, summaryView } from "./summary-view";

const minute = 60_000;
const t0 = Date.UTC(2031, 0, 2, 3, 4, 0);

describe("perMinuteAt", () => {
  it("shifts counts taken minutes ago: the minutes since counted nothing", () => {
    expect(perMinuteAt([1, 2, 3, 4], 10, 10)).toEqual([1, 2, 3, 4]);
    expect(perMinuteAt([1, 2, 3, 4], 10, 12)).toEqual([3, 4, 0, 0]);
    expect(perMinuteAt([1, 2, 3, 4], 10, 20)).toEqual([0, 0, 0, 0]);
  });

  it("keeps the length and never invents data", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100), { maxLength: 12 }), fc.nat(15), (counts, shift) => {
        const shifted = perMinuteAt(counts, 0, shift);
        expect(shifted).toHaveLength(counts.length);
        expect(shifted.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(counts.reduce((a, b) => a + b, 0));
      }),
    );
  });
});

describe("dataPerSecond", () => {
  it("divides the previous minute and this one so far by their seconds", () => {
    expect(dataPerSecond([0, 60, 30], t0 + 30_000)).toBe(1);
    expect(dataPerSecond([], t0)).toBe(0);
  });
});

describe("summaryView", () => {
  it("counts each metric's failing and backlogged observers, and sums the intake", () => {
    const merged = mergeShards([
      {
        metrics: [
          figures("cpu", t0, { observers: 2, dataAccepted: 90, acceptedPerMinute: [0, 0, 0, 0, 0, 0, 0, 0, 60, 30] }),
          figures("mem", t0 - 2 * minute, { dataAccepted: 5, acceptedPerMinute: [0, 0, 0, 0, 0, 0, 0, 0, 0, 5] }),
        ],
        observers: [
          {
            ...snapshot("down", t0, {
              metric: "cpu",
              status: { lastFailureAt: "2031-01-02T03:04:00.000Z", backlog: 7, lastError: "refused" },
            }),
            removed: false,
            listedAt: t0,
          },
          { ...snapshot("up", t0, { metric: "cpu", status: { delivered: 90 } }), removed: false, listedAt: t0 },
          { ...snapshot("sel", t0, { match: ["mem"] }), removed: false, listedAt: t0 },
        ],
      },
    ]);
    const view = summaryView(merged, t0 + 30_000, usage);
    expect(view.metrics).toEqual([
      expect.objectContaining({
        id: "cpu",
        dataPerSecond: 1,
        failingObservers: 1,
        backloggedObservers: 1,
        backlog: 7,
      }),
      // Counted two minutes before: its minute moved back, and nothing came since.
      expect.objectContaining({ id: "mem", acceptedPerMinute: [0, 0, 0, 0, 0, 0, 0, 5, 0, 0], dataPerSecond: 0 }),
    ]);
    expect(view.intake).toMatchObject({ dataAccepted: 95, dataPerSecond: 1, routes: usage.intake });
    expect(
      view.observers.map((observer) => [observer.id, "follows" in observer ? observer.follows : observer.metric]),
    ).toEqual([
      ["sel", 1],
      ["down", "cpu"],
      ["up", "cpu"],
    ]);
  });
});
