import { describe, expect, it } from "vitest";
import { shardOfKey } from "../summary/shard-key";
import { PlanCache } from "./plan-cache";

const entry = { id: "cached-observer", match: ["up"] };
const epochsOf = (metric: string, epoch: number) => new Map([[shardOfKey(metric), epoch]]);

describe("PlanCache", () => {
  it("uses a leased plan for a batch received before the lease ends, in its epoch", () => {
    const cache = new PlanCache();
    expect(cache.leaseOf("m", 0, epochsOf("m", 0))).toBeUndefined();
    cache.keep("m", [entry], 1_000, 2_000, 3);
    expect(cache.leaseOf("m", 2_999, epochsOf("m", 3))).toEqual({ selectors: [entry], until: 3_000, epoch: 3 });
    expect(cache.leaseOf("m", 3_000, epochsOf("m", 3))).toBeUndefined();
  });

  it("trusts no lease asked for before the shard's current epoch, without an epoch, or whose shard was not read", () => {
    const cache = new PlanCache();
    cache.keep("m", [entry], 0, 2_000, 3);
    expect(cache.leaseOf("m", 1, epochsOf("m", 4))).toBeUndefined();
    expect(cache.leaseOf("m", 1, new Map())).toBeUndefined();
    cache.keep("n", [entry], 0, 2_000, undefined);
    expect(cache.leaseOf("n", 1, epochsOf("n", 0))).toBeUndefined();
  });

  it("names the shards to read: those of the metrics leased so far, ended leases included, until forgotten", () => {
    const cache = new PlanCache();
    expect(cache.shardsToRead(["m", "n"])).toEqual(new Set());
    cache.keep("m", [entry], 0, 2_000, undefined);
    expect(cache.shardsToRead(["m", "n"])).toEqual(new Set([shardOfKey("m")]));
    cache.forget("m");
    expect(cache.shardsToRead(["m", "n"])).toEqual(new Set());
  });

  it("drops a selector observer that is gone from every leased plan", () => {
    const cache = new PlanCache();
    const other = { id: "other-observer", match: ["down"] };
    cache.keep("m", [entry, other], 0, 2_000, 0);
    cache.keep("n", [entry], 0, 2_000, 0);
    cache.forgetSelector(entry.id);
    expect(cache.leaseOf("m", 1, epochsOf("m", 0))?.selectors).toEqual([other]);
    expect(cache.leaseOf("n", 1, epochsOf("n", 0))?.selectors).toEqual([]);
  });
});
