import type { DatumRow } from "../intake/datum";
import { rowsJson } from "../intake/row-json";
import { recentDataKept } from "./kept-entries";

/** How many minutes of acceptance counts a metric keeps, for the data rate of the last minutes. */
export const minutesCounted = 10;

const minuteMs = 60_000;

/** A row as recent data keep it: `/metrics/:id/data` shows no labels, so they are not stored. */
const withoutLabels = (row: DatumRow): DatumRow => (row.length === 4 ? row : [row[0], row[1], row[2], row[3]]);

/**
 * A metric's most recent data and how many it accepted, per minute and in all, in the metric's
 * SQLite storage. The consumer's batch brings them in the request it already makes to the metric,
 * so keeping them costs no request and one row write per batch: the recent data are one row.
 */
export class RecentData {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS recent_data (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), rows TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS accepted_per_minute (minute INTEGER PRIMARY KEY, data INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS accepted_total (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), data INTEGER NOT NULL);
    `);
  }

  /**
   * Records a batch's data: `latest` are its last (at most `recentDataKept`) rows in the order they
   * were accepted, `count` all of them. A batch consumed again after a failure brings the same
   * datum ids, which are kept once. Their labels are left out.
   */
  record(latest: readonly DatumRow[], count: number, now: number): void {
    if (count === 0) return;
    const incoming = new Set(latest.map(([id]) => id));
    const kept = this.rows().filter(([id]) => !incoming.has(id));
    const rows = [...kept, ...latest.map(withoutLabels)].slice(-recentDataKept);
    this.sql.exec(
      "INSERT INTO recent_data (singleton, rows) VALUES (1, ?) ON CONFLICT (singleton) DO UPDATE SET rows = excluded.rows",
      rowsJson(rows),
    );
    const minute = Math.floor(now / minuteMs);
    this.sql.exec(
      `INSERT INTO accepted_per_minute (minute, data) VALUES (?, ?)
       ON CONFLICT (minute) DO UPDATE SET data = data + excluded.data`,
      minute,
      count,
    );
    this.sql.exec("DELETE FROM accepted_per_minute WHERE minute <= ?", minute - minutesCounted);
    this.sql.exec(
      `INSERT INTO accepted_total (singleton, data) VALUES (1, ?)
       ON CONFLICT (singleton) DO UPDATE SET data = data + excluded.data`,
      count,
    );
  }

  /** The latest `limit` rows, newest first. */
  latest(limit: number): DatumRow[] {
    return this.rows().slice(-limit).reverse();
  }

  /** Data accepted in each of the last `minutesCounted` minutes, oldest first; the last is the current minute. */
  perMinute(now: number): number[] {
    const current = Math.floor(now / minuteMs);
    const counts = new Map(
      this.sql
        .exec<{ minute: number; data: number }>(
          "SELECT minute, data FROM accepted_per_minute WHERE minute > ?",
          current - minutesCounted,
        )
        .toArray()
        .map((row) => [row.minute, row.data]),
    );
    return Array.from({ length: minutesCounted }, (_, index) => counts.get(current - minutesCounted + 1 + index) ?? 0);
  }

  total(): number {
    return this.sql.exec<{ data: number }>("SELECT data FROM accepted_total").toArray()[0]?.data ?? 0;
  }

  clear(): void {
    this.sql.exec("DELETE FROM recent_data");
    this.sql.exec("DELETE FROM accepted_per_minute");
    this.sql.exec("DELETE FROM accepted_total");
  }

  private rows(): DatumRow[] {
    const row = this.sql.exec<{ rows: string }>("SELECT rows FROM recent_data").toArray()[0];
    return row ? (JSON.parse(row.rows) as DatumRow[]) : [];
  }
}
