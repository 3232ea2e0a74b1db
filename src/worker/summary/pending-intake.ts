import { recentDataKept } from "../metrics/kept-entries";
import type { LeasedIntakeBlocks } from "../metrics/metric-object";
import { type MinuteCount, summedCounts } from "../metrics/recent-data";
import type { DatumRow } from "../vocabulary/datum";
import { firstOfLatest, joinedBlocks, rowBlock } from "../vocabulary/row-block";
import type { PackedIntakes } from "./leased-intake";

/** The pending intake's first table, of rows as JSON text: a schema step of the summary shard. */
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

const pendingBlockTable = `
  CREATE TABLE pending_block (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    metric TEXT NOT NULL,
    -- A batch's rows of the metric, as a row block (see row-block.ts); empty once later blocks hold
    -- all the rows its object keeps.
    block BLOB NOT NULL,
    rows INTEGER NOT NULL,
    counts TEXT NOT NULL,
    -- When its metric's object is to be told (ms since the epoch): its lease's end, later after a failure.
    due_at INTEGER NOT NULL
  );
  CREATE INDEX pending_block_of_metric ON pending_block (metric, seq);
  CREATE INDEX pending_block_due ON pending_block (due_at);
`;

/** The schema step that keeps each batch's rows as a row block rather than JSON text, those pending rewritten so. */
export function pendingIntakeAsBlocks(sql: SqlStorage): void {
  const pending = sql
    .exec<{ seq: number; metric: string; latest: string; counts: string; due_at: number }>(
      "SELECT seq, metric, latest, counts, due_at FROM pending_intake ORDER BY seq",
    )
    .toArray();
  sql.exec(`DROP TABLE pending_intake; ${pendingBlockTable}`);
  for (const { seq, metric, latest, counts, due_at } of pending) {
    const rows = JSON.parse(latest) as DatumRow[];
    sql.exec(
      "INSERT INTO pending_block (seq, metric, block, rows, counts, due_at) VALUES (?, ?, ?, ?, ?, ?)",
      seq,
      metric,
      rowBlock(rows),
      rows.length,
      counts,
      due_at,
    );
  }
}

/** A metric's pending intake, as its object takes it, and the last of the rows it was read from. */
export interface DueIntake {
  metric: string;
  intake: LeasedIntakeBlocks;
  throughSeq: number;
}

type PendingRow = { seq: number; block: ArrayBuffer; rows: number; counts: string };

/**
 * Data consumed under plan leases that their metrics' objects have yet to be told, on the summary
 * shard's disk: one row per batch and metric, kept until the metric's object confirmed it recorded
 * them. A metric is due once one of its leases ended; it is then told all it has pending, so that
 * it gets a request per lease rather than per batch: each batch's rows as the row block they were
 * kept in, which its object stores as it is (its recent data hide an earlier batch's datum that a
 * later batch brings again), and the counts. A metric that brings more rows than its object keeps
 * while it waits has its oldest blocks emptied (their counts stay), so that a lease's hand-over
 * moves what its object keeps, not all the lease's data.
 */
export class PendingIntake {
  /** The rows pending per metric, once read from disk; forgotten when rows go other than by add(). */
  private rowsOfMetric: Map<string, number> | undefined;

  constructor(
    private readonly sql: SqlStorage,
    private readonly leaseMs: () => number,
  ) {}

  /**
   * Keeps a batch's intakes (packed by packLeasedIntakes), in their order, each due at its lease's
   * end; never later than a lease from `now`, whatever the clocks.
   */
  add({ index, blocks }: PackedIntakes, now: number): void {
    this.sql.exec(
      `INSERT INTO pending_block (metric, block, rows, counts, due_at)
       SELECT value ->> 0, substr(?1, (value ->> 1) + 1, value ->> 2), value ->> 3, value -> 4, MIN(value ->> 5, ?2)
       FROM json_each(?3) ORDER BY key`,
      blocks,
      now + this.leaseMs(),
      index,
    );
    const rowsOfMetric = this.pendingRows();
    for (const [metric, , , rows] of JSON.parse(index) as [string, number, number, number][]) {
      const pending = (rowsOfMetric.get(metric) ?? 0) + rows;
      rowsOfMetric.set(metric, pending > 2 * recentDataKept ? this.emptyHiddenBlocks(metric) : pending);
    }
  }

  private pendingRows(): Map<string, number> {
    this.rowsOfMetric ??= new Map(
      this.sql
        .exec<{ metric: string; rows: number }>("SELECT metric, SUM(rows) AS rows FROM pending_block GROUP BY metric")
        .toArray()
        .map(({ metric, rows }) => [metric, rows]),
    );
    return this.rowsOfMetric;
  }

  /** Empties the metric's blocks older than those that hold its latest `recentDataKept` rows; answers the rows left. */
  private emptyHiddenBlocks(metric: string): number {
    this.sql.exec(
      `UPDATE pending_block SET block = x'', rows = 0
       WHERE metric = ?1 AND rows > 0 AND seq < (
         SELECT seq FROM (
           SELECT seq, SUM(rows) OVER (ORDER BY seq DESC) AS newer FROM pending_block WHERE metric = ?1
         ) WHERE newer >= ?2 ORDER BY seq DESC LIMIT 1
       )`,
      metric,
      recentDataKept,
    );
    return this.sql.exec<{ rows: number }>("SELECT SUM(rows) AS rows FROM pending_block WHERE metric = ?", metric).one()
      .rows;
  }

  /** When the earliest pending intake is due; undefined when none is pending. */
  nextDueAt(): number | undefined {
    return (
      this.sql.exec<{ due_at: number | null }>("SELECT MIN(due_at) AS due_at FROM pending_block").one().due_at ??
      undefined
    );
  }

  /** Up to `limit` metrics due by `now`, those waiting longest first, each with all it has pending. */
  due(now: number, limit: number): DueIntake[] {
    const metrics = this.sql
      .exec<{ metric: string }>(
        "SELECT metric FROM pending_block WHERE due_at <= ? GROUP BY metric ORDER BY MIN(due_at), metric LIMIT ?",
        now,
        limit,
      )
      .toArray();
    return metrics.map(({ metric }) => {
      const pending = this.sql
        .exec<PendingRow>("SELECT seq, block, rows, counts FROM pending_block WHERE metric = ? ORDER BY seq", metric)
        .toArray();
      const counts = summedCounts(pending.flatMap((row) => JSON.parse(row.counts) as MinuteCount[]));
      // The blocks that hold the latest rows its object keeps.
      const blocks = pending
        .slice(firstOfLatest(pending, recentDataKept))
        .flatMap(({ block, rows }) => (rows > 0 ? [new Uint8Array(block)] : []));
      return { metric, intake: { blocks: joinedBlocks(blocks), counts }, throughSeq: pending.at(-1)!.seq };
    });
  }

  /** Forgets the rows the metric's object recorded: those of a due intake (see due()). */
  settle({ metric, throughSeq }: DueIntake): void {
    this.sql.exec("DELETE FROM pending_block WHERE metric = ? AND seq <= ?", metric, throughSeq);
    this.rowsOfMetric = undefined;
  }

  /** Makes the rows of a due intake whose metric's object could not be told due again at `dueAt`. */
  postpone({ metric, throughSeq }: DueIntake, dueAt: number): void {
    this.sql.exec("UPDATE pending_block SET due_at = ? WHERE metric = ? AND seq <= ?", dueAt, metric, throughSeq);
  }

  /** Forgets a removed metric's pending intake: data consumed before its removal do not bring it back. */
  dropMetric(metric: string): void {
    this.sql.exec("DELETE FROM pending_block WHERE metric = ?", metric);
    this.rowsOfMetric?.delete(metric);
  }
}
