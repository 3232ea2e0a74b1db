import { describe, expect, it } from "vitest";
import { cycleWalks, elided, type Step } from "./cycle-walks";

const step = (from: string, to: string): Step => ({ from, to });
const all = (steps: readonly Step[]) => steps.map((_, index) => index);

/** Steps around a cycle of `length` nodes m0 → m1 → … → m0. */
const ring = (length: number) => Array.from({ length }, (_, index) => step(`m${index}`, `m${(index + 1) % length}`));

describe("cycleWalks", () => {
  it("finds no walk for steps on no cycle", () => {
    const steps = [step("a", "b"), step("b", "c"), step("a", "c")];
    expect(cycleWalks(steps, all(steps))).toEqual([undefined, undefined, undefined]);
  });

  it("walks a step onto itself", () => {
    expect(cycleWalks([step("a", "a")], [0])).toEqual([["a", "a"]]);
  });

  it("walks each step of a cycle round from its own start", () => {
    const steps = ring(3);
    expect(cycleWalks(steps, all(steps))).toEqual([
      ["m0", "m1", "m2", "m0"],
      ["m1", "m2", "m0", "m1"],
      ["m2", "m0", "m1", "m2"],
    ]);
  });

  it("answers only the steps asked about, turning at the first of them", () => {
    const steps = ring(3);
    expect(cycleWalks(steps, [2])).toEqual([["m2", "m0", "m1", "m2"]]);
  });

  it("leaves out branches that do not come back", () => {
    const steps = [step("a", "b"), step("b", "dead"), step("b", "c"), step("c", "a"), step("b", "out")];
    const walks = cycleWalks(steps, all(steps));
    expect(walks).toEqual([["a", "b", "c", "a"], undefined, ["b", "c", "a", "b"], ["c", "a", "b", "c"], undefined]);
  });

  it("shows a long walk by its ends", () => {
    const steps = ring(1_000);
    const [first, middle] = cycleWalks(steps, [0, 500]);
    expect(first).toEqual(["m0", "m1", "m2", "m3", "m4", elided, "m0"]);
    expect(middle).toEqual([
      "m500",
      "m501",
      "m502",
      "m503",
      "m504",
      elided,
      "m0",
      elided,
      "m497",
      "m498",
      "m499",
      "m500",
    ]);
  });

  it("walks every step of a cycle of twenty thousand, each walk short", () => {
    const steps = ring(20_000);
    const walks = cycleWalks(steps, all(steps));
    expect(walks.every((walk) => walk !== undefined && walk.length <= 13)).toBe(true);
  });

  it("follows every walk along steps that exist", () => {
    const steps = [step("a", "b"), step("b", "a"), step("b", "c"), step("c", "d"), step("d", "b"), step("d", "d")];
    const known = new Set(steps.map(({ from, to }) => `${from}>${to}`));
    for (const [index, walk] of cycleWalks(steps, all(steps)).entries()) {
      expect(walk?.slice(0, 2)).toEqual([steps[index]!.from, steps[index]!.to]);
      expect(walk?.at(-1)).toBe(steps[index]!.from);
      for (let position = 1; position < walk!.length; position++) {
        expect(known.has(`${walk![position - 1]}>${walk![position]}`)).toBe(true);
      }
    }
  });
});
