import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { metricStub } from "../metrics/metric-object";
import { minuteOf } from "../metrics/recent-data";
import { shardOfKey, summaryShardCount } from "./shard-key";
import { figures, snapshot } from "./summary-fixtures";
import { flushSummary, noteLeasedIntake, noteMetricFigures, noteObserverSnapshots } from "./summary-outbox";
import { summaryShardStub } from "./summary-shard";

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

/** A key of the test's that falls in `shard`. */
function keyIn(shard: number, prefix: string): string {
  for (let index = 0; ; index += 1) if (shardOfKey(`${prefix}${index}`) === shard) return `${prefix}${index}`;
}

/**
 * An observer id that falls in `shard`: a UUID, as the service makes them. The shards are the
 * service's own, which other files' GET /summary reads and checks against the OpenAPI document.
 */
function observerIdIn(shard: number): string {
  for (;;) {
    const id = crypto.randomUUID();
    if (shardOfKey(id) === shard) return id;
  }
}

async function shardHolding(id: string): Promise<number[]> {
  const holding: number[] = [];
  for (let shard = 0; shard < summaryShardCount; shard += 1) {
    const { observers } = await summaryShardStub(env, shard).read();
    if (observers.some((observer) => observer.id === id)) holding.push(shard);
  }
  return holding;
}

describe("the summary's outbox", () => {
  it("writes a metric and its observers to the metric's shard, the latest version of each", async () => {
    const metric = keyIn(1, "outbox_metric_");
    noteMetricFigures(figures(metric, t0 + 1, { dataAccepted: 3 }));
    noteMetricFigures(figures(metric, t0, { dataAccepted: 1 }));
    const observer = crypto.randomUUID();
    noteObserverSnapshots([snapshot(observer, t0, { metric })]);
    await flushSummary(env);
    const { metrics } = await summaryShardStub(env, 1).read();
    expect(metrics.find((figure) => figure.name === metric)).toEqual(figures(metric, t0 + 1, { dataAccepted: 3 }));
    expect(await shardHolding(observer)).toEqual([1]);
  });

  it("sends a selector observer's report along to a shard the batch touches rather than to its own", async () => {
    const metric = keyIn(2, "outbox_along_");
    const selector = observerIdIn(3);
    noteMetricFigures(figures(metric, t0));
    noteObserverSnapshots([snapshot(selector, t0, { match: ["x"] })]);
    await flushSummary(env);
    expect(await shardHolding(selector)).toEqual([2]);
    // Alone, it goes to its own shard.
    noteObserverSnapshots([snapshot(selector, t0 + 1, { match: ["x"] })]);
    await flushSummary(env);
    expect(await shardHolding(selector)).toEqual([2, 3]);
  });

  it("hands the data delivered by leased plans to the metric's shard, which tells the metric's object", async () => {
    const metric = keyIn(0, "outbox_leased_");
    const now = performance.now();
    const counts = [[minuteOf(Date.now()), 1]] as const;
    noteLeasedIntake({ metric, latest: [["a", 1_000, 1, "vm1"]], counts: [...counts], leaseEndsAt: now });
    noteLeasedIntake({ metric, latest: [["b", 2_000, 2, "vm1"]], counts: [...counts], leaseEndsAt: now + 100 });
    await flushSummary(env);
    const recentIds = async () => (await metricStub(env, metric).recentData(10))?.map(([id]) => id);
    await expect.poll(recentIds, { timeout: 5_000, interval: 50 }).toEqual(["b", "a"]);
    expect((await metricStub(env, metric).describeMetric())?.dataAccepted).toBe(2);
  });
});
