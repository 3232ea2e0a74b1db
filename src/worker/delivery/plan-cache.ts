import { recentDataKept } from "../metrics/kept-entries";
import { type BatchIntake, metricStub } from "../metrics/metric-object";
import { type MinuteCount, minuteOf } from "../metrics/recent-data";
import { noteMetricFigures } from "../summary/summary-outbox";
import type { DatumRow } from "../vocabulary/datum";
import type { SelectorEntry } from "../vocabulary/delivery";

/*
 * Plan leases, as a consumer isolate holds them. A metric's object that only selector observers
 * follow (no observer of its own, no rule) leases its plan for PLAN_LEASE_MS: the isolate
 * delivers the metric's data by that plan, without asking, to every batch it received before the
 * lease ended, and keeps their recent data and counts (the object's side of a plan request) until
 * it asks again, or until the end of a batch after the lease. A fleet's metrics then cost a
 * request each per lease rather than per batch. The data of the last batches before the isolate
 * goes quiet wait for its next batch: hence no lease for a metric nothing follows, whose counts
 * are all it shows.
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
 * one sets.
 */

/** A plan the metric's object leased: its selector observers, until when (performance.now()). */
interface Lease {
  selectors: readonly SelectorEntry[];
  until: number;
}

/** Data consumed under a lease that the metric's object has yet to be told. */
interface Tally {
  latest: DatumRow[];
  counts: Map<number, number>;
  /** The end of the lease they were consumed under. */
  until: number;
}

/** A tally as a plan request or a recording carries it. */
function intakeOf(tally: Tally | undefined): BatchIntake {
  return tally === undefined ? { latest: [], counts: [] } : { latest: tally.latest, counts: [...tally.counts] };
}

/** `earlier` then `later`, the last `recentDataKept`; a datum of `later` hides the same id in `earlier` (a batch consumed again). */
function latestOf(earlier: readonly DatumRow[], later: readonly DatumRow[]): DatumRow[] {
  const kept = later.slice(-recentDataKept);
  if (earlier.length === 0) return kept;
  const ids = new Set(kept.map(([id]) => id));
  return [...earlier.filter(([id]) => !ids.has(id)), ...kept].slice(-recentDataKept);
}

function addCounts(counts: Map<number, number>, added: readonly MinuteCount[]): void {
  for (const [minute, data] of added) counts.set(minute, (counts.get(minute) ?? 0) + data);
}

/**
 * The plans an isolate was leased, and what it consumed under them. One lease per metric it
 * consumed recently: an ended one goes when its metric comes again.
 */
export class PlanCache {
  private readonly leases = new Map<string, Lease>();
  private readonly tallies = new Map<string, Tally>();

  /** The selector observers of the metric's leased plan, if a lease covers a batch received at `receivedAt`. */
  leasedSelectors(metric: string, receivedAt: number): readonly SelectorEntry[] | undefined {
    const lease = this.leases.get(metric);
    if (lease === undefined) return undefined;
    if (receivedAt < lease.until) return lease.selectors;
    this.leases.delete(metric);
    return undefined;
  }

  /** Keeps a plan leased for `leaseMs`, asked for at `askedAt` (before the request left). */
  keep(metric: string, selectors: readonly SelectorEntry[], askedAt: number, leaseMs: number): void {
    this.leases.set(metric, { selectors, until: askedAt + leaseMs });
  }

  /** Adds the rows of a batch delivered by the metric's leased plan to what its object has yet to be told. */
  tally(metric: string, rows: readonly DatumRow[]): void {
    const until = this.leases.get(metric)?.until ?? 0;
    const tally = this.tallies.get(metric) ?? { latest: [], counts: new Map<number, number>(), until };
    tally.latest = latestOf(tally.latest, rows);
    addCounts(tally.counts, [[minuteOf(Date.now()), rows.length]]);
    tally.until = Math.max(tally.until, until);
    this.tallies.set(metric, tally);
  }

  /** Takes what the metric's object has yet to be told, with `rows` of the batch at hand after it. */
  take(metric: string, rows: readonly DatumRow[] = []): { pending: BatchIntake; withBatch: BatchIntake } {
    const tally = this.tallies.get(metric);
    this.tallies.delete(metric);
    const pending = intakeOf(tally);
    if (rows.length === 0) return { pending, withBatch: pending };
    const counts = new Map(tally?.counts);
    addCounts(counts, [[minuteOf(Date.now()), rows.length]]);
    return { pending, withBatch: { latest: latestOf(pending.latest, rows), counts: [...counts] } };
  }

  /** Gives back what could not be told, before anything tallied since. */
  restore(metric: string, intake: BatchIntake): void {
    if (intake.counts.length === 0) return;
    const since = this.tallies.get(metric);
    const counts = new Map(intake.counts);
    if (since) addCounts(counts, [...since.counts]);
    this.tallies.set(metric, {
      latest: latestOf(intake.latest, since?.latest ?? []),
      counts,
      until: since?.until ?? 0,
    });
  }

  /** The metrics whose data consumed under a lease that ended by `now` their objects have yet to be told. */
  due(now: number): string[] {
    return [...this.tallies].filter(([, tally]) => tally.until <= now).map(([metric]) => metric);
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

/**
 * Tells each metric's object what was consumed under its lease that ended by `now`, for a metric
 * no batch brought since: one request per metric and lease. What cannot be told waits for the next.
 */
export async function handOverDueTallies(env: Env, now: number): Promise<void> {
  await Promise.all(
    planCache.due(now).map(async (metric) => {
      const { pending } = planCache.take(metric);
      try {
        noteMetricFigures(await metricStub(env, metric).recordIntake(metric, pending));
      } catch (error) {
        planCache.restore(metric, pending);
        console.error(
          `data of ${JSON.stringify(metric)} not recorded: ${error instanceof Error ? error.message : error}`,
        );
      }
    }),
  );
}
