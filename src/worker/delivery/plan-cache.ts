import { shardOfKey } from "../summary/shard-key";
import type { SelectorEntry } from "../vocabulary/delivery";

/*
 * Plan leases, as a consumer isolate holds them. A metric's object that only selector observers
 * follow (no observer of its own, no rule) leases its plan for PLAN_LEASE_MS: the isolate
 * delivers the metric's data by that plan, without asking, to every batch it received before the
 * lease ended. A fleet's metrics then cost a request each per lease rather than per batch. The
 * object's side of a plan request, the batch's recent data and counts, goes with the batch's write
 * to the metric's summary shard, which keeps it on disk and tells the object once the lease ended
 * (src/worker/summary/pending-intake.ts): nothing waits here for a next batch.
 *
 * Why an observer registered before a datum was accepted still gets it: a registration that would
 * change a leased plan (a metric's observer, a rule reader, a selector observer) first changes the
 * metric's object, then advances the plan epoch of the metric's summary shard
 * (src/worker/summary/plan-epochs.ts), and answers only then. A datum accepted after that comes in
 * a batch received after that, and the consumer reads the epochs of the shards of its leased
 * metrics at the start of each batch: a lease is trusted only if it was asked for in the current
 * epoch, read before its plan request left, so a plan asked for before the change is not. A shard
 * whose epoch cannot be read has none of its leases trusted. Where the epoch could not be advanced,
 * the registration waits for the leases to end instead (src/worker/metrics/plan-lease.ts). The
 * isolate measures a lease's length with performance.now(), which no one sets (in Workers it reads
 * the time since the epoch), from before it sent the plan request.
 */

/** A plan the metric's object leased: its selector observers, until when (performance.now()), asked for in which epoch. */
export interface Lease {
  selectors: readonly SelectorEntry[];
  until: number;
  /** The plan epoch of the metric's shard when the plan was asked for; undefined when it was not read. */
  epoch: number | undefined;
}

/**
 * The plans an isolate was leased: one lease per metric it consumed under a lease, kept after it
 * ended, so that the metric's shard's epoch is read for the next batch and a new lease is trusted.
 */
export class PlanCache {
  private readonly leases = new Map<string, Lease>();

  /** The shards whose epochs a batch of `metrics` needs: those of the metrics leased so far. */
  shardsToRead(metrics: Iterable<string>): Set<number> {
    const shards = new Set<number>();
    for (const metric of metrics) if (this.leases.has(metric)) shards.add(shardOfKey(metric));
    return shards;
  }

  /** The metric's leased plan, if its lease covers a batch received at `receivedAt` and is of the current `epochs`. */
  leaseOf(metric: string, receivedAt: number, epochs: ReadonlyMap<number, number>): Lease | undefined {
    const lease = this.leases.get(metric);
    if (lease === undefined || lease.epoch === undefined || receivedAt >= lease.until) return undefined;
    const current = epochs.get(shardOfKey(metric));
    return current !== undefined && lease.epoch >= current ? lease : undefined;
  }

  /** Keeps a plan leased for `leaseMs`, asked for at `askedAt` (before the request left) in `epoch`. */
  keep(
    metric: string,
    selectors: readonly SelectorEntry[],
    askedAt: number,
    leaseMs: number,
    epoch: number | undefined,
  ): void {
    this.leases.set(metric, { selectors, until: askedAt + leaseMs, epoch });
  }

  /** Forgets the metric's lease: its object no longer leases its plan. */
  forget(metric: string): void {
    this.leases.delete(metric);
  }

  /** Drops a selector observer that is gone from every leased plan. */
  forgetSelector(id: string): void {
    for (const lease of this.leases.values()) {
      if (lease.selectors.some((entry) => entry.id === id))
        lease.selectors = lease.selectors.filter((entry) => entry.id !== id);
    }
  }
}

/** This isolate's leases. */
export const planCache = new PlanCache();
