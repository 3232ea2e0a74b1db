import { shardOfKey, summaryShardCount } from "./shard-key";
import { summaryShardStub } from "./summary-shard";
import type { SummaryUpdate } from "./summary-update";

/*
 * How an object hands the summary what it changed outside consumer batches: an administrator's
 * change, an alarm's deliveries. The summary is a picture of the objects, never what they decide
 * by: a write that fails is logged, and the owner's next update of the same things repairs it.
 */

async function logged(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    console.error("summary not updated:", error instanceof Error ? error.message : error);
  }
}

/** Writes `update` to the shard of `key`: a metric's name, or a selector observer's id. */
export function publishSummary(env: Env, key: string, update: SummaryUpdate): Promise<void> {
  return logged(summaryShardStub(env, shardOfKey(key)).apply(update));
}

/** Writes `update` to every shard: a selector observer's removal, as any shard may hold a copy of its report. */
export async function publishToEveryShard(env: Env, update: SummaryUpdate): Promise<void> {
  await Promise.all(
    Array.from({ length: summaryShardCount }, (_, index) => logged(summaryShardStub(env, index).apply(update))),
  );
}
