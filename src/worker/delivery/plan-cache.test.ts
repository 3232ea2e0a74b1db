import { describe, expect, it } from "vitest";
import { PlanCache } from "./plan-cache";

const entry = { id: "cached-observer", match: ["up"] };

describe("PlanCache", () => {
  it("uses a leased plan for a batch received before the lease ends, and forgets it after", () => {
    const cache = new PlanCache();
    expect(cache.leaseOf("m", 0)).toBeUndefined();
    cache.keep("m", [entry], 1_000, 2_000);
    expect(cache.leaseOf("m", 2_999)).toEqual({ selectors: [entry], until: 3_000 });
    expect(cache.leaseOf("m", 3_000)).toBeUndefined();
    expect(cache.leaseOf("m", 2_999)).toBeUndefined();
  });

  it("drops a selector observer that is gone from every leased plan", () => {
    const cache = new PlanCache();
    const other = { id: "other-observer", match: ["down"] };
    cache.keep("m", [entry, other], 0, 2_000);
    cache.keep("n", [entry], 0, 2_000);
    cache.forgetSelector(entry.id);
    expect(cache.leaseOf("m", 1)?.selectors).toEqual([other]);
    expect(cache.leaseOf("n", 1)?.selectors).toEqual([]);
  });
});
