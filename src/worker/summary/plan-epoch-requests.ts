import { shardOfKey } from "./shard-key";
import { summaryShardStub } from "./summary-shard";

/*
 * The two sides of the plan epochs (see plan-epochs.ts): a consumer reads them before it trusts a
 * leased plan; a change to a metric's plan that must reach every later datum advances them.
 */

/** The plan epochs of `shards`; a shard that did not answer is left out, and its leases go untrusted. */
export async function readPlanEpochs(env: Env, shards: Iterable<number>): Promise<Map<number, number>> {
  const epochs = new Map<number, number>();
  await Promise.all(
    [...shards].map(async (shard) => {
      try {
        epochs.set(shard, await summaryShardStub(env, shard).planEpoch());
      } catch (error) {
        console.error(`plan epoch of summary shard ${shard} not read:`, error instanceof Error ? error.message : error);
      }
    }),
  );
  return epochs;
}

/**
 * Revokes the plans leased of `metrics` (and of the other metrics in their shards), one request per
 * shard; where a shard cannot advance its epoch, `waitOut` waits for the leases to end instead.
 */
export async function revokeLeasedPlans(
  env: Env,
  metrics: Iterable<string>,
  waitOut: () => Promise<void>,
): Promise<void> {
  const shards = new Set([...metrics].map(shardOfKey));
  try {
    await Promise.all([...shards].map((shard) => summaryShardStub(env, shard).revokeLeasedPlans()));
    return;
  } catch (error) {
    console.error("leased plans not revoked, waiting for them to end:", error instanceof Error ? error.message : error);
  }
  await waitOut();
}
