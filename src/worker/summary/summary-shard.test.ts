import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { figures, snapshot } from "./summary-fixtures";

/** A shard of the test's own. */
let shards = 0;
const freshShard = () => env.SUMMARY_SHARD.getByName(`summary-shard-test-${++shards}`);

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

describe("SummaryShard", () => {
  it("keeps the latest version of a metric and of an observer, whatever the order they arrive in", async () => {
    const shard = freshShard();
    await shard.apply({
      metrics: [figures("cpu", t0 + 2, { dataAccepted: 2 })],
      observers: [snapshot("o", t0 + 2, { metric: "cpu", status: { delivered: 2 } })],
    });
    await shard.apply({
      metrics: [figures("cpu", t0 + 1, { dataAccepted: 1 })],
      observers: [snapshot("o", t0 + 1, { metric: "cpu", status: { delivered: 1 } })],
    });
    const content = await shard.read();
    expect(content.metrics).toEqual([figures("cpu", t0 + 2, { dataAccepted: 2 })]);
    expect(content.observers).toEqual([
      { ...snapshot("o", t0 + 2, { metric: "cpu", status: { delivered: 2 } }), removed: false, listedAt: t0 + 2 },
    ]);
  });

  it("removes a metric with its observers; a version older than the removal does not bring them back", async () => {
    const shard = freshShard();
    await shard.apply({
      metricStates: [{ figures: figures("gone", t0), observers: [snapshot("o", t0, { metric: "gone" })] }],
    });
    await shard.apply({ removedMetrics: [{ key: "gone", at: t0 + 10 }] });
    await shard.apply({ metrics: [figures("gone", t0 + 5)], observers: [snapshot("o", t0 + 5, { metric: "gone" })] });
    expect(await shard.read()).toEqual({ metrics: [], observers: [] });
    // Data of the metric accepted later create it again, without its observers.
    await shard.apply({ metrics: [figures("gone", t0 + 20)] });
    expect(await shard.read()).toEqual({ metrics: [figures("gone", t0 + 20)], observers: [] });
  });

  it("takes a metric's state as all of its observers: one it lacks is gone", async () => {
    const shard = freshShard();
    const kept = snapshot("kept", t0, { metric: "m" });
    await shard.apply({
      metricStates: [{ figures: figures("m", t0), observers: [kept, snapshot("dropped", t0, { metric: "m" })] }],
    });
    const later = snapshot("kept", t0 + 1, { metric: "m" });
    await shard.apply({ metricStates: [{ figures: figures("m", t0 + 1), observers: [later] }] });
    expect((await shard.read()).observers.map((observer) => observer.id)).toEqual(["kept"]);
  });

  it("answers a selector observer's removal, so that a copy of it in another shard is known to be gone", async () => {
    const shard = freshShard();
    await shard.apply({ observers: [snapshot("sel", t0, { match: ["x"] })] });
    await shard.apply({ removedObservers: [{ key: "sel", at: t0 + 1 }] });
    expect((await shard.read()).observers).toEqual([expect.objectContaining({ id: "sel", at: t0 + 1, removed: true })]);
  });

  it("forgets removals a day old", async () => {
    const shard = freshShard();
    await shard.apply({ removedObservers: [{ key: "old", at: Date.now() - 25 * 3_600_000 }] });
    expect((await shard.read()).observers).toEqual([]);
  });
});
