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
 * change a leased plan (a metric's observer, a rule reader: src/worker/metrics/plan-lease.ts; a
 * selector observer: src/worker/observers/selector-registration.ts) answers only after every lease
 * granted before has ended. A lease is a length of time, which each side measures on its own clock
 * from its own moment: the isolate from before it sent the plan request, the object from when it
 * granted it, which is later; so the isolate's lease ends first, whatever the two clocks read. A
 * datum accepted after the registration answered is queued after that, so the isolate receives its
 * batch after its lease ended, and asks again: the isolate judges a batch by the time it received
 * it (taken at the start of the batch). The isolate measures with performance.now(), which no
 * one sets (in Workers it reads the time since the epoch).
 */

/** A plan the metric's object leased: its selector observers, until when (performance.now()). */
export interface Lease {
  selectors: readonly SelectorEntry[];
  until: number;
}

/** The plans an isolate was leased: one lease per metric it consumed recently; an ended one goes when its metric comes again. */
export class PlanCache {
  private readonly leases = new Map<string, Lease>();

  /** The metric's leased plan, if its lease covers a batch received at `receivedAt`. */
  leaseOf(metric: string, receivedAt: number): Lease | undefined {
    const lease = this.leases.get(metric);
    if (lease === undefined) return undefined;
    if (receivedAt < lease.until) return lease;
    this.leases.delete(metric);
    return undefined;
  }

  /** Keeps a plan leased for `leaseMs`, asked for at `askedAt` (before the request left). */
  keep(metric: string, selectors: readonly SelectorEntry[], askedAt: number, leaseMs: number): void {
    this.leases.set(metric, { selectors, until: askedAt + leaseMs });
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
