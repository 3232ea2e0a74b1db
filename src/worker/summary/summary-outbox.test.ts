import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardOfKey, summaryShardCount } from "./shard-key";
import { figures, snapshot } from "./summary-fixtures";
import { flushSummary, noteMetricFigures, noteObserverSnapshots } from "./summary-outbox";
import { summaryShardStub } from "./summary-shard";

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

/** A key of the test's that falls in `shard`. */
function keyIn(shard: number, prefix: string): string {
  for (let index = 0; ; index += 1) if (shardOfKey(`${prefix}${index}`) === shard) return `${prefix}${index}`;
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
    noteObserverSnapshots([snapshot(`${metric}-observer`, t0, { metric })]);
    await flushSummary(env);
    const { metrics } = await summaryShardStub(env, 1).read();
    expect(metrics.find((figure) => figure.name === metric)).toEqual(figures(metric, t0 + 1, { dataAccepted: 3 }));
    expect(await shardHolding(`${metric}-observer`)).toEqual([1]);
  });

  it("sends a selector observer's report along to a shard the batch touches rather than to its own", async () => {
    const metric = keyIn(2, "outbox_along_");
    const selector = keyIn(3, "outbox_selector_");
    noteMetricFigures(figures(metric, t0));
    noteObserverSnapshots([snapshot(selector, t0, { match: ["x"] })]);
    await flushSummary(env);
    expect(await shardHolding(selector)).toEqual([2]);
    // Alone, it goes to its own shard.
    noteObserverSnapshots([snapshot(selector, t0 + 1, { match: ["x"] })]);
    await flushSummary(env);
    expect(await shardHolding(selector)).toEqual([2, 3]);
  });
});
