import { describe, expect, it } from "vitest";
import { type CollectionPace, collectingNowAndThen } from "./garbage-collection";

const pace: CollectionPace = { intervalMs: 250, busyIntervalMs: 1_000, busyEventsPerSecond: 60 };

/** The times at which collections ran, of calls at `times`. */
function collectionsAt(times: readonly number[]): number[] {
  let time = 0;
  const collections: number[] = [];
  const collect = collectingNowAndThen(
    () => collections.push(time),
    pace,
    () => time,
  );
  for (time of times) collect();
  return collections;
}

/** Calls every `everyMs` from `from` until before `until`. */
const calls = (from: number, until: number, everyMs: number) =>
  Array.from({ length: Math.ceil((until - from) / everyMs) }, (_, index) => from + index * everyMs);

describe("collectingNowAndThen", () => {
  it("collects on the first call, then at most once per interval while events come at a moderate rate", () => {
    // 20 events a second.
    expect(collectionsAt(calls(0, 1_500, 50))).toEqual([0, 250, 500, 750, 1_000, 1_250]);
  });

  it("collects at most once per the longer interval while events come faster than the busy rate", () => {
    // 200 events a second.
    expect(collectionsAt(calls(0, 3_500, 5))).toEqual([0, 1_000, 2_000, 3_000]);
  });

  it("takes the busy rate as a bound: exactly at it is still a moderate rate", () => {
    // 60 events a second: 15 events in each 250 ms.
    const times = calls(0, 1_000, 1_000 / 60).map(Math.round);
    expect(collectionsAt(times)).toEqual([0, 250, 500, 750]);
  });

  it("goes back to the short interval once events slow down", () => {
    const busy = calls(0, 2_000, 5);
    const quiet = calls(2_000, 3_500, 100);
    expect(collectionsAt([...busy, ...quiet])).toEqual([0, 1_000, 2_000, 2_300, 2_600, 2_900, 3_200]);
  });

  it("waits a whole interval after a late call", () => {
    expect(collectionsAt([0, 1_700, 1_900, 1_950, 2_100])).toEqual([0, 1_700, 1_950]);
  });

  it("does nothing where the runtime exposes no gc()", () => {
    expect(() => collectingNowAndThen(undefined, pace, () => 0)()).not.toThrow();
  });
});
