import type { AttemptRecord, AttemptReport } from "../vocabulary/delivery";
import { attemptsKept } from "./kept-entries";

type AttemptRow = {
  at: number;
  attempt: number;
  ok: number;
  http_status: number | null;
  error: string | null;
  latency_ms: number;
  data: number;
  rejected: number;
  webhook_id: string;
};

/** The attempt table: a schema step of every object that holds observers. */
export const attemptSchema = `
  CREATE TABLE attempt (
    observer_id TEXT NOT NULL,
    slot INTEGER NOT NULL,
    sequence INTEGER NOT NULL,
    at INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    http_status INTEGER,
    error TEXT,
    latency_ms INTEGER NOT NULL,
    data INTEGER NOT NULL,
    rejected INTEGER NOT NULL DEFAULT 0,
    webhook_id TEXT NOT NULL,
    PRIMARY KEY (observer_id, slot)
  );
  CREATE INDEX attempt_sequence ON attempt (observer_id, sequence);
`;

/**
 * The latest delivery attempts of each observer, in the metric's SQLite storage. Each observer has
 * a ring of `attemptsKept` slots, so logging an attempt writes one row and the log never needs a
 * clean-up.
 */
export class AttemptLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Logs `report` as the observer's attempt number `sequence` (1, 2, …). */
  add(report: AttemptReport, sequence: number): void {
    this.sql.exec(
      `INSERT INTO attempt (observer_id, slot, sequence, at, attempt, ok, http_status, error, latency_ms, data,
         rejected, webhook_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (observer_id, slot) DO UPDATE SET sequence = excluded.sequence, at = excluded.at,
         attempt = excluded.attempt, ok = excluded.ok, http_status = excluded.http_status, error = excluded.error,
         latency_ms = excluded.latency_ms, data = excluded.data, rejected = excluded.rejected,
         webhook_id = excluded.webhook_id`,
      report.observerId,
      sequence % attemptsKept,
      sequence,
      report.at,
      report.attempt,
      report.ok ? 1 : 0,
      report.httpStatus ?? null,
      report.error ?? null,
      Math.round(report.latencyMs),
      report.data,
      report.rejected ?? 0,
      report.webhookId,
    );
  }

  /** The observer's latest `limit` attempts, newest first. */
  latest(observerId: string, limit: number): AttemptRecord[] {
    return this.sql
      .exec<AttemptRow>(
        `SELECT at, attempt, ok, http_status, error, latency_ms, data, rejected, webhook_id FROM attempt
         WHERE observer_id = ? ORDER BY sequence DESC LIMIT ?`,
        observerId,
        limit,
      )
      .toArray()
      .map((row) => ({
        at: new Date(row.at).toISOString(),
        attempt: row.attempt,
        ok: row.ok === 1,
        ...(row.http_status === null ? {} : { httpStatus: row.http_status }),
        ...(row.error === null ? {} : { error: row.error }),
        latencyMs: row.latency_ms,
        data: row.data,
        ...(row.rejected === 0 ? {} : { rejected: row.rejected }),
        webhookId: row.webhook_id,
      }));
  }

  removeObserver(observerId: string): void {
    this.sql.exec("DELETE FROM attempt WHERE observer_id = ?", observerId);
  }

  clear(): void {
    this.sql.exec("DELETE FROM attempt");
  }
}
