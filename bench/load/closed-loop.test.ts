import { describe, expect, it } from "vitest";
import { combineLoads } from "./closed-loop.ts";

describe("loads", () => {
  it("combines rounds as one load: requests over seconds, errors summed", () => {
    const rounds = [
      { requests: 30, seconds: 3, perSecond: 10, errors: 1 },
      { requests: 10, seconds: 2, perSecond: 5, errors: 0 },
    ];
    expect(combineLoads(rounds)).toEqual({ requests: 40, seconds: 5, perSecond: 8, errors: 1 });
  });
});
