import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerWaitMs } from "./answer-wait";

describe("answerWaitMs", () => {
  it("gives an observer without a successful latest attempt the whole budget", () => {
    expect(answerWaitMs(undefined, 2_000)).toBe(2_000);
  });

  it("gives a fast observer a small part of the budget, a slower one ten times its latest answer time", () => {
    expect(answerWaitMs(3, 2_000)).toBe(250);
    expect(answerWaitMs(60, 2_000)).toBe(600);
  });

  it("never waits longer than the budget, nor less than an eighth of it", () => {
    fc.assert(
      fc.property(
        fc.option(fc.nat(1_000_000), { nil: undefined }),
        fc.integer({ min: 1, max: 600_000 }),
        (ms, budget) => {
          const wait = answerWaitMs(ms, budget);
          expect(wait).toBeLessThanOrEqual(budget);
          expect(wait).toBeGreaterThanOrEqual(budget / 8);
        },
      ),
    );
  });
});
