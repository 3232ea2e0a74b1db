import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fewAtOnce } from "./few-at-once.ts";

describe("fewAtOnce", () => {
  it("gives every item's result in the items' order, never running more than asked at once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(5), { maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        async (delays, atOnce) => {
          let running = 0;
          let most = 0;
          const results = await fewAtOnce(delays, atOnce, async (delay) => {
            running += 1;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, delay));
            running -= 1;
            return delay * 2;
          });
          expect(results).toEqual(delays.map((delay) => delay * 2));
          expect(most).toBeLessThanOrEqual(atOnce);
        },
      ),
      { numRuns: 30 },
    );
  });
});
