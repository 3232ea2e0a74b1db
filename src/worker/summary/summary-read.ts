import { summaryShardCount } from "./shard-key";
import { type MergedSummary, mergeShards } from "./shard-merge";
import { summaryShardStub } from "./summary-shard";

/** The summary as the shards hold it: one request to each, whatever the metrics and observers. */
export async function readSummary(env: Env): Promise<MergedSummary> {
  const contents = await Promise.all(
    Array.from({ length: summaryShardCount }, (_, index) => summaryShardStub(env, index).read()),
  );
  return mergeShards(contents);
}
