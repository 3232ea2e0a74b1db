import type { DatumRow } from "../vocabulary/datum";
import { maxDataPerPayload } from "../vocabulary/delivery";

/** A stored part of an observer's backlog: the data of one payload, delivered (or not) as a whole. */
export interface BacklogChunk<Item = DatumRow> {
  seq: number;
  webhookId: string;
  rows: Item[];
  data: number;
  acceptedAt: number;
  /** Attempts made at these data so far. */
  attempts: number;
  /** The upstream services its data came through (`tower-edge-via`), oldest first. */
  via: string[];
}

type ChunkRow = {
  seq: number;
  webhook_id: string;
  rows: string;
  data: number;
  accepted_at: number;
  attempts: number;
  via: string;
};

function toChunk<Item>(row: ChunkRow): BacklogChunk<Item> {
  return {
    seq: row.seq,
    webhookId: row.webhook_id,
    rows: JSON.parse(row.rows) as Item[],
    data: row.data,
    acceptedAt: row.accepted_at,
    attempts: row.attempts,
    via: row.via === "" ? [] : row.via.split(","),
  };
}

/** The backlog table: a schema step of every object that holds observers. */
export const backlogSchema = `
  CREATE TABLE backlog (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    observer_id TEXT NOT NULL,
    webhook_id TEXT NOT NULL,
    rows TEXT NOT NULL,
    data INTEGER NOT NULL,
    accepted_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    first_failure_at INTEGER,
    dead_at INTEGER,
    via TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX backlog_observer ON backlog (observer_id, seq);
  CREATE INDEX backlog_dead ON backlog (dead_at) WHERE dead_at IS NOT NULL;
`;

/**
 * What observers of one metric have not received, in the metric's SQLite storage: chunks in the
 * order of acceptance (`seq`), pending until delivered, or dead once they were tried for the whole
 * retry schedule (kept for replay until their retention ends). The observer's counters of pending
 * and dead data are kept by the caller beside these rows. An item is one datum: a row of the
 * metric (a metric's object), or a row with its metric (a selector observer's object), written as
 * JSON by `itemsJson`.
 */
export class BacklogStore<Item = DatumRow> {
  constructor(
    private readonly sql: SqlStorage,
    private readonly itemsJson: (items: readonly Item[]) => string,
  ) {}

  /**
   * Adds data at the end of the observer's backlog. Data never sent yet join the last chunk when it
   * was never sent either, came through the same upstream services and has room, so that a held
   * observer catches up in full payloads; data that were sent keep their own chunk, with the webhook
   * id the receiver may have seen.
   */
  append(
    observerId: string,
    chunk: {
      webhookId: string;
      rows: readonly Item[];
      acceptedAt: number;
      attempts: number;
      failedAt?: number;
      /** The data were refused for good: they are dead from now. */
      deadAt?: number;
      /** The upstream services the data came through; none when absent. */
      via?: readonly string[];
    },
  ): void {
    const rows = this.itemsJson(chunk.rows);
    const via = chunk.via?.join(",") ?? "";
    if (chunk.attempts === 0 && chunk.failedAt === undefined && chunk.deadAt === undefined) {
      const joined = this.sql.exec(
        `UPDATE backlog SET rows = substr(rows, 1, length(rows) - 1) || ',' || substr(?, 2), data = data + ?
         WHERE seq = (SELECT MAX(seq) FROM backlog WHERE observer_id = ?)
           AND attempts = 0 AND first_failure_at IS NULL AND dead_at IS NULL AND via = ? AND data + ? <= ?`,
        rows,
        chunk.rows.length,
        observerId,
        via,
        chunk.rows.length,
        maxDataPerPayload,
      ).rowsWritten;
      if (joined > 0) return;
    }
    this.sql.exec(
      `INSERT INTO backlog (observer_id, webhook_id, rows, data, accepted_at, attempts, first_failure_at, dead_at, via)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      observerId,
      chunk.webhookId,
      rows,
      chunk.rows.length,
      chunk.acceptedAt,
      chunk.attempts,
      chunk.failedAt ?? null,
      chunk.deadAt ?? null,
      via,
    );
  }

  /** The oldest pending chunk of the observer. */
  head(observerId: string): BacklogChunk<Item> | undefined {
    const row = this.sql
      .exec<ChunkRow>(
        `SELECT seq, webhook_id, rows, data, accepted_at, attempts, via FROM backlog
         WHERE observer_id = ? AND dead_at IS NULL ORDER BY seq LIMIT 1`,
        observerId,
      )
      .toArray()[0];
    return row && toChunk<Item>(row);
  }

  oldestPendingAcceptedAt(observerId: string): number | null {
    return (
      this.sql
        .exec<{ accepted_at: number }>(
          "SELECT accepted_at FROM backlog WHERE observer_id = ? AND dead_at IS NULL ORDER BY seq LIMIT 1",
          observerId,
        )
        .toArray()[0]?.accepted_at ?? null
    );
  }

  /**
   * Delivered: the chunk leaves the backlog. Returns how many data it still held, which is fewer
   * than were delivered when the cap cut the chunk (or dropped it) meanwhile.
   */
  remove(seq: number): number {
    const removed = this.sql.exec<{ data: number }>("DELETE FROM backlog WHERE seq = ? RETURNING data", seq).toArray();
    return removed[0]?.data ?? 0;
  }

  /**
   * An attempt at the chunk starts: it counts, and from now on no later data join the chunk (what
   * is delivered is what was read).
   */
  startAttempt(seq: number): void {
    this.sql.exec("UPDATE backlog SET attempts = attempts + 1 WHERE seq = ?", seq);
  }

  /**
   * A failed attempt at the observer's backlog: every pending chunk has now been tried (an attempt
   * at the head is one at all behind it). Returns the data that became dead: those tried since
   * `deadBefore` or earlier.
   */
  recordFailure(observerId: string, at: number, deadBefore: number): number {
    this.sql.exec(
      "UPDATE backlog SET first_failure_at = ? WHERE observer_id = ? AND dead_at IS NULL AND first_failure_at IS NULL",
      at,
      observerId,
    );
    return this.sql
      .exec<{ data: number }>(
        `UPDATE backlog SET dead_at = ? WHERE observer_id = ? AND dead_at IS NULL AND first_failure_at <= ?
         RETURNING data`,
        at,
        observerId,
        deadBefore,
      )
      .toArray()
      .reduce((total, row) => total + row.data, 0);
  }

  /** The chunk was refused for good: its data are dead from `at`. Returns how many data it holds. */
  markDead(seq: number, at: number): number {
    return (
      this.sql
        .exec<{ data: number }>("UPDATE backlog SET dead_at = ? WHERE seq = ? RETURNING data", at, seq)
        .toArray()[0]?.data ?? 0
    );
  }

  /** The observer's pending data are tried for a whole schedule again from their next failure. */
  restartSchedule(observerId: string): void {
    this.sql.exec("UPDATE backlog SET first_failure_at = NULL WHERE observer_id = ? AND dead_at IS NULL", observerId);
  }

  /** Dead data of every observer whose retention ended at `deadBefore`: removed, with each observer's count. */
  dropDead(deadBefore: number): Map<string, number> {
    const dropped = new Map<string, number>();
    const rows = this.sql
      .exec<{ observer_id: string; data: number }>(
        "DELETE FROM backlog WHERE dead_at IS NOT NULL AND dead_at <= ? RETURNING observer_id, data",
        deadBefore,
      )
      .toArray();
    for (const row of rows) dropped.set(row.observer_id, (dropped.get(row.observer_id) ?? 0) + row.data);
    return dropped;
  }

  /** When the oldest dead chunk became dead. */
  oldestDeadAt(): number | null {
    return this.sql
      .exec<{ at: number | null }>("SELECT MIN(dead_at) AS at FROM backlog WHERE dead_at IS NOT NULL")
      .one().at;
  }

  /**
   * Drops the observer's `excess` oldest data, dead or pending; a chunk is cut when only part of it
   * must go. Returns how many pending and dead data were dropped.
   */
  trim(observerId: string, excess: number): { pending: number; dead: number } {
    const dropped = { pending: 0, dead: 0 };
    let left = excess;
    while (left > 0) {
      const oldest = this.sql
        .exec<{ seq: number; rows: string; data: number; dead_at: number | null }>(
          "SELECT seq, rows, data, dead_at FROM backlog WHERE observer_id = ? ORDER BY seq LIMIT 1",
          observerId,
        )
        .toArray()[0];
      if (!oldest) break;
      const cut = Math.min(left, oldest.data);
      if (cut === oldest.data) {
        this.sql.exec("DELETE FROM backlog WHERE seq = ?", oldest.seq);
      } else {
        const rest = (JSON.parse(oldest.rows) as Item[]).slice(cut);
        this.sql.exec(
          "UPDATE backlog SET rows = ?, data = ? WHERE seq = ?",
          this.itemsJson(rest),
          rest.length,
          oldest.seq,
        );
      }
      dropped[oldest.dead_at === null ? "pending" : "dead"] += cut;
      left -= cut;
    }
    return dropped;
  }

  /**
   * Dead data accepted within [since, until] go back to pending, with their webhook ids, for a new
   * run of the schedule. Returns how many.
   */
  replay(observerId: string, since: number, until: number): number {
    return this.sql
      .exec<{ data: number }>(
        `UPDATE backlog SET dead_at = NULL, first_failure_at = NULL, attempts = 0
         WHERE observer_id = ? AND dead_at IS NOT NULL AND accepted_at BETWEEN ? AND ?
         RETURNING data`,
        observerId,
        since,
        until,
      )
      .toArray()
      .reduce((total, row) => total + row.data, 0);
  }

  removeObserver(observerId: string): void {
    this.sql.exec("DELETE FROM backlog WHERE observer_id = ?", observerId);
  }

  clear(): void {
    this.sql.exec("DELETE FROM backlog");
  }
}
