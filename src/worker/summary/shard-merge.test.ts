import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeShards } from "./shard-merge";
import { figures, snapshot } from "./summary-fixtures";
import type { ShardContent } from "./summary-update";

const listed = (observer: ReturnType<typeof snapshot>, listedAt = observer.at, removed = false) => ({
  ...observer,
  listedAt,
  removed,
});

describe("mergeShards", () => {
  it("lists metrics by name, selector observers first, then each metric's, each as first listed", () => {
    const merged = mergeShards([
      {
        metrics: [figures("b", 1)],
        observers: [listed(snapshot("o-b", 5, { metric: "b" })), listed(snapshot("s-2", 9, { match: ["x"] }))],
      },
      {
        metrics: [figures("a", 1)],
        observers: [listed(snapshot("o-a", 7, { metric: "a" })), listed(snapshot("s-1", 8, { match: ["y"] }))],
      },
    ]);
    expect(merged.metrics.map((metric) => metric.name)).toEqual(["a", "b"]);
    expect(merged.observers.map((observer) => observer.id)).toEqual(["s-1", "s-2", "o-a", "o-b"]);
  });

  it("keeps a selector observer's latest report across shards, and drops it when its removal is the latest", () => {
    const older = snapshot("s", 10, { match: ["x"], status: { delivered: 1 } });
    const newer = snapshot("s", 20, { match: ["x"], status: { delivered: 2 } });
    const merged = mergeShards([
      { metrics: [], observers: [listed(newer, 20)] },
      { metrics: [], observers: [listed(older, 10)] },
    ]);
    expect(merged.observers).toEqual([{ ...newer, listedAt: 10 }]);
    const removed = mergeShards([
      { metrics: [], observers: [listed(older, 10)] },
      { metrics: [], observers: [listed(snapshot("s", 30), 30, true)] },
    ]);
    expect(removed.observers).toEqual([]);
  });

  it("gives the same picture whatever the order the shards answer in", () => {
    const content = fc.record({
      metrics: fc.array(
        fc.record({ name: fc.constantFrom("a", "b", "c"), at: fc.nat(5) }).map(({ name, at }) => figures(name, at)),
        { maxLength: 3 },
      ),
      observers: fc.array(
        fc
          .record({ id: fc.constantFrom("s1", "s2"), at: fc.nat(5), removed: fc.boolean() })
          .map(({ id, at, removed }) => listed(snapshot(id, at, { match: [`m${at}`] }), at, removed)),
        { maxLength: 4 },
      ),
    });
    fc.assert(
      fc.property(fc.array(content, { minLength: 1, maxLength: 4 }), (contents: ShardContent[]) => {
        // One version per key and time, as the objects' clocks give them.
        const unique = contents.map((shard) => ({
          metrics: shard.metrics.filter((metric, index, all) => all.findIndex((m) => m.name === metric.name) === index),
          observers: shard.observers,
        }));
        const seen = new Set<string>();
        for (const shard of unique) {
          shard.observers = shard.observers.filter((observer) => {
            const key = `${observer.id}@${observer.at}`;
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          });
        }
        const forwards = mergeShards(unique);
        const backwards = mergeShards([...unique].reverse());
        expect(backwards.observers).toEqual(forwards.observers);
        expect(backwards.metrics.map((metric) => [metric.name, metric.at])).toEqual(
          forwards.metrics.map((metric) => [metric.name, metric.at]),
        );
      }),
    );
  });
});
