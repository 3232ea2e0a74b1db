import { describe, expect, it } from "vitest";
import { collectingNowAndThen } from "./garbage-collection";

/** The times at which collections ran, of calls at `times`, with an interval of 1,000. */
function collectionsAt(times: readonly number[]): number[] {
  let time = 0;
  const collections: number[] = [];
  const collect = collectingNowAndThen(
    () => collections.push(time),
    1_000,
    () => time,
  );
  for (time of times) collect();
  return collections;
}

describe("collectingNowAndThen", () => {
  it("collects on the first call, then at most once per interval", () => {
    const everyQuarterSecond = Array.from({ length: 15 }, (_, index) => index * 250);
    expect(collectionsAt(everyQuarterSecond)).toEqual([0, 1_000, 2_000, 3_000]);
  });

  it("waits a whole interval after a late call", () => {
    expect(collectionsAt([0, 1_700, 2_500, 2_700, 3_100])).toEqual([0, 1_700, 2_700]);
  });

  it("does nothing where the runtime exposes no gc()", () => {
    expect(() => collectingNowAndThen(undefined, 1_000, () => 0)()).not.toThrow();
  });
});
