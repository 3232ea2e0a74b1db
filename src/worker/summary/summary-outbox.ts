import { getOrCreate } from "../common/get-or-create";
import { type LeasedIntake, mergeIntakes, packLeasedIntakes } from "./leased-intake";
import { shardOfKey } from "./shard-key";
import { summaryShardStub } from "./summary-shard";
import type { MetricFigures, ObserverSnapshot, SummaryUpdate } from "./summary-update";

/*
 * What consumer batches learnt for the summary, in this isolate, until it is written: the figures
 * each metric's object answered with its plan, the reports each object answered when it recorded a
 * batch, and the data delivered by leased plans, which the metric's shard hands to its object.
 * Only the latest version of each figure and report is kept; a batch writes what is pending with
 * one request per shard it touches, so a batch's share of the summary costs at most a request per
 * shard, whatever its data, metrics and observers.
 */

const pendingMetrics = new Map<string, MetricFigures>();
const pendingObservers = new Map<string, ObserverSnapshot>();
const pendingIntakes = new Map<string, LeasedIntake>();

function keepLatest<Value extends { at: number }>(pending: Map<string, Value>, key: string, value: Value): void {
  const kept = pending.get(key);
  if (!kept || kept.at <= value.at) pending.set(key, value);
}

export function noteMetricFigures(figures: MetricFigures): void {
  keepLatest(pendingMetrics, figures.name, figures);
}

export function noteObserverSnapshots(snapshots: readonly ObserverSnapshot[]): void {
  for (const snapshot of snapshots) keepLatest(pendingObservers, snapshot.id, snapshot);
}

/** Adds data delivered by a leased plan to what the metric's shard is to hand its object, after what is pending. */
export function noteLeasedIntake(intake: LeasedIntake): void {
  const earlier = pendingIntakes.get(intake.metric);
  pendingIntakes.set(
    intake.metric,
    earlier === undefined
      ? intake
      : { ...intake, ...mergeIntakes(earlier, intake), leaseEndsAt: Math.min(earlier.leaseEndsAt, intake.leaseEndsAt) },
  );
}

/** Gives back intake a shard did not take, before what was noted since. */
function restoreLeasedIntake(intake: LeasedIntake): void {
  const since = pendingIntakes.get(intake.metric);
  pendingIntakes.delete(intake.metric);
  noteLeasedIntake(intake);
  if (since !== undefined) noteLeasedIntake(since);
}

/** One shard's share of what is pending: its update, and the leased intakes packed into it. */
interface ShardWrite {
  update: SummaryUpdate & Required<Pick<SummaryUpdate, "metrics" | "observers">>;
  intakes: LeasedIntake[];
}

/**
 * The pending versions by shard: a metric, its observers and its leased intake in the metric's
 * shard; a selector observer's report travels with them, in its own shard if the write touches it,
 * else in the first touched (readers take the latest version of each observer across shards).
 */
function byShard(
  metrics: readonly MetricFigures[],
  observers: readonly ObserverSnapshot[],
  intakes: readonly LeasedIntake[],
): Map<number, ShardWrite> {
  const writes = new Map<number, ShardWrite>();
  const writeOf = (shard: number) =>
    getOrCreate(writes, shard, () => ({ update: { metrics: [], observers: [] }, intakes: [] }));
  for (const figures of metrics) writeOf(shardOfKey(figures.name)).update.metrics.push(figures);
  for (const intake of intakes) writeOf(shardOfKey(intake.metric)).intakes.push(intake);
  const selectorObservers: ObserverSnapshot[] = [];
  for (const snapshot of observers) {
    if (snapshot.metric === undefined) selectorObservers.push(snapshot);
    else writeOf(shardOfKey(snapshot.metric)).update.observers.push(snapshot);
  }
  for (const snapshot of selectorObservers) {
    const home = shardOfKey(snapshot.id);
    const [firstTouched] = writes.keys();
    writeOf(writes.has(home) || firstTouched === undefined ? home : firstTouched).update.observers.push(snapshot);
  }
  for (const { update, intakes: shardIntakes } of writes.values()) {
    if (shardIntakes.length > 0) update.leasedIntakes = packLeasedIntakes(shardIntakes);
  }
  return writes;
}

/** Writes what is pending; what a shard did not take stays pending for the next batch's write. */
export async function flushSummary(env: Env): Promise<void> {
  const metrics = [...pendingMetrics.values()];
  const observers = [...pendingObservers.values()];
  const intakes = [...pendingIntakes.values()];
  pendingMetrics.clear();
  pendingObservers.clear();
  pendingIntakes.clear();
  await Promise.all(
    [...byShard(metrics, observers, intakes)].map(async ([shard, { update, intakes: shardIntakes }]) => {
      try {
        await summaryShardStub(env, shard).apply(update);
      } catch (error) {
        console.error("summary not updated:", error instanceof Error ? error.message : error);
        for (const figures of update.metrics) noteMetricFigures(figures);
        noteObserverSnapshots(update.observers);
        for (const intake of shardIntakes) restoreLeasedIntake(intake);
      }
    }),
  );
}
