import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shardOfKey, stringHash, summaryShardCount } from "./shard-key";

describe("shardOfKey", () => {
  it("places every key in one of the shards, the same one each time", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (key) => {
        const shard = shardOfKey(key);
        expect(shard).toBeGreaterThanOrEqual(0);
        expect(shard).toBeLessThan(summaryShardCount);
        expect(shardOfKey(key)).toBe(shard);
      }),
    );
  });

  it("spreads a fleet's metric names over every shard", () => {
    const counts = new Array(summaryShardCount).fill(0);
    for (let index = 0; index < 1_000; index += 1) counts[shardOfKey(`node_metric_${index}`)] += 1;
    for (const count of counts) expect(count).toBeGreaterThan(150);
  });

  it("is FNV-1a over UTF-16 code units", () => {
    expect(stringHash("")).toBe(0x811c9dc5);
    expect(stringHash("a")).toBe(0xe40c292c);
  });
});
