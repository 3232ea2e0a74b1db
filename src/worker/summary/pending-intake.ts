import type { LeasedIntakeBlocks } from "../metrics/metric-object";
import { type MinuteCount, summedCounts } from "../metrics/recent-data";

/** The pending intake's table: a schema step of the summary shard. */
export const pendingIntakeSchema = `
  CREATE TABLE pending_intake (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    metric TEXT NOT NULL,
    latest TEXT NOT NULL,
    counts TEXT NOT NULL,
    -- When its metric's object is to be told (ms since the epoch): its lease's end, later after a failure.
    due_at INTEGER NOT NULL
  );
  CREATE INDEX pending_intake_of_metric ON pending_intake (metric, seq);
  CREATE INDEX pending_intake_due ON pending_intake (due_at);
`;

/** A metric's pending intake, as its object takes it, and the rows it was read from. */
export interface DueIntake {
  metric: string;
  intake: LeasedIntakeBlocks;
  seqs: number[];
}

type PendingRow = { seq: number; latest: string; counts: string; rows: number };

/**
 * Data consumed under plan leases that their metrics' objects have yet to be told, on the summary
 * shard's disk: one row per batch and metric, kept until the metric's object confirmed it recorded
 * them. A metric is due once one of its leases ended; it is then told all it has pending, so that
 * it gets a request per lease rather than per batch: each batch's rows as the JSON text they were
 * kept in, which its object stores as they are (its recent data hide an earlier batch's datum that
 * a later batch brings again), so that the hand-over neither parses nor writes them again.
 */
export class PendingIntake {
  constructor(
    private readonly sql: SqlStorage,
    private readonly leaseMs: () => number,
  ) {}

  /**
   * Keeps a batch's intakes (packed by packLeasedIntakes), in their order, each due at its lease's
   * end; never later than a lease from `now`, whatever the clocks.
   */
  add(packedIntakes: string, now: number): void {
    this.sql.exec(
      `INSERT INTO pending_intake (metric, latest, counts, due_at)
       SELECT value ->> 0, value ->> 1, value ->> 2, MIN(value ->> 3, ?) FROM json_each(?) ORDER BY key`,
      now + this.leaseMs(),
      packedIntakes,
    );
  }

  /** When the earliest pending intake is due; undefined when none is pending. */
  nextDueAt(): number | undefined {
    return (
      this.sql.exec<{ due_at: number | null }>("SELECT MIN(due_at) AS due_at FROM pending_intake").one().due_at ??
      undefined
    );
  }

  /** Up to `limit` metrics due by `now`, those waiting longest first, each with all it has pending. */
  due(now: number, limit: number): DueIntake[] {
    const metrics = this.sql
      .exec<{ metric: string }>(
        "SELECT metric FROM pending_intake WHERE due_at <= ? GROUP BY metric ORDER BY MIN(due_at), metric LIMIT ?",
        now,
        limit,
      )
      .toArray();
    return metrics.map(({ metric }) => {
      const pending = this.sql
        .exec<PendingRow>(
          `SELECT seq, latest, counts, json_array_length(latest) AS rows FROM pending_intake
           WHERE metric = ? ORDER BY seq`,
          metric,
        )
        .toArray();
      const counts = summedCounts(pending.flatMap((row) => JSON.parse(row.counts) as MinuteCount[]));
      return {
        metric,
        intake: { blocks: pending.map(({ latest, rows }) => ({ json: latest, rows })), counts },
        seqs: pending.map((row) => row.seq),
      };
    });
  }

  /** Forgets the rows the metric's object recorded. */
  settle(seqs: readonly number[]): void {
    this.sql.exec("DELETE FROM pending_intake WHERE seq IN (SELECT value FROM json_each(?))", JSON.stringify(seqs));
  }

  /** Makes rows whose metric's object could not be told due again at `dueAt`. */
  postpone(seqs: readonly number[], dueAt: number): void {
    this.sql.exec(
      "UPDATE pending_intake SET due_at = ? WHERE seq IN (SELECT value FROM json_each(?))",
      dueAt,
      JSON.stringify(seqs),
    );
  }

  /** Forgets a removed metric's pending intake: data consumed before its removal do not bring it back. */
  dropMetric(metric: string): void {
    this.sql.exec("DELETE FROM pending_intake WHERE metric = ?", metric);
  }
}
