import type { DatumRow } from "../vocabulary/datum";
import { blocksOf, firstOfLatest, rowBlock, rowsOfBlocks } from "../vocabulary/row-block";
import { recentDataKept } from "./kept-entries";

/** How many minutes of acceptance counts a metric keeps, for the data rate of the last minutes. */
export const minutesCounted = 10;

const minuteMs = 60_000;

/** The minute (since the epoch) that the time `epochMs` falls in. */
export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / minuteMs);
}

/** How many data were accepted in a minute (see minuteOf). */
export type MinuteCount = readonly [minute: number, data: number];

/** `counts` added up by minute, in the order each minute first came. */
export function summedCounts(counts: Iterable<MinuteCount>): MinuteCount[] {
  const summed = new Map<number, number>();
  for (const [minute, data] of counts) summed.set(minute, (summed.get(minute) ?? 0) + data);
  return [...summed];
}

/** The recent data's tables: a schema step of the metric's object. */
export const recentDataSchema = `
  CREATE TABLE recent_block (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    rows TEXT NOT NULL,
    -- How many rows the blocks up to this one hold together.
    upto INTEGER NOT NULL
  );
  CREATE TABLE accepted_per_minute (minute INTEGER PRIMARY KEY, data INTEGER NOT NULL);
  CREATE TABLE accepted_total (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), data INTEGER NOT NULL);
`;

/**
 * The schema step that keeps the recent data as row blocks (see row-block.ts) rather than JSON
 * text, those kept rewritten so: a stored batch is its row block, a stored hand-over of leased data
 * the blocks it brought, one after the other.
 */
export function recentBlocksAsBytes(sql: SqlStorage): void {
  const kept = sql
    .exec<{ seq: number; rows: string; upto: number }>("SELECT seq, rows, upto FROM recent_block ORDER BY seq")
    .toArray();
  sql.exec(`
    DROP TABLE recent_block;
    CREATE TABLE recent_block (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      blocks BLOB NOT NULL,
      -- How many rows the blocks up to these hold together.
      upto INTEGER NOT NULL
    );
  `);
  for (const { seq, rows, upto } of kept) {
    sql.exec(
      "INSERT INTO recent_block (seq, blocks, upto) VALUES (?, ?, ?)",
      seq,
      rowBlock(JSON.parse(rows) as DatumRow[]),
      upto,
    );
  }
}

/**
 * A metric's most recent data and how many it accepted, per minute and in all, in the metric's
 * SQLite storage. The consumer's batch brings them in the request it already makes to the metric,
 * so keeping them costs no request. Each batch's rows are one row block (see row-block.ts), a
 * lease's hand-over the blocks it brought, stored as they come: a batch costs writing its own
 * rows, whatever the metric keeps (a metric of a fleet gets a few data per batch, and rewriting all
 * it keeps each time cost more than the rest of the batch). Stored blocks whose rows are all older
 * than the latest `recentDataKept` go.
 */
export class RecentData {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Records consumed data: `latest` are their last (at most `recentDataKept`) rows in the order they
   * were accepted, `counts` how many were accepted in each minute, all of them (the consumer may
   * bring the data of several batches at once, and of a minute already past). A batch consumed
   * again after a failure brings the same datum ids, which are shown once. Their labels are left out.
   */
  record(latest: readonly DatumRow[], counts: readonly MinuteCount[], now: number): void {
    if (latest.length > 0) this.appendBlocks(rowBlock(latest), latest.length);
    this.countAccepted(counts, now);
  }

  /**
   * Records data consumed under plan leases as their summary shard kept them: `blocks`, row blocks
   * one after the other in the order they were consumed, written as they are (from the first that
   * holds some of the latest `recentDataKept` rows on), and `counts` as in record().
   */
  recordBlocks(blocks: Uint8Array, counts: readonly MinuteCount[], now: number): void {
    const placed = blocksOf(blocks);
    const kept = placed.slice(firstOfLatest(placed, recentDataKept));
    const rows = kept.reduce((total, block) => total + block.rows, 0);
    if (rows > 0) this.appendBlocks(blocks.subarray(kept[0]!.offset), rows);
    this.countAccepted(counts, now);
  }

  private countAccepted(counts: readonly MinuteCount[], now: number): void {
    let total = 0;
    for (const [minute, data] of counts) {
      total += data;
      this.sql.exec(
        `INSERT INTO accepted_per_minute (minute, data) VALUES (?, ?)
         ON CONFLICT (minute) DO UPDATE SET data = data + excluded.data`,
        minute,
        data,
      );
    }
    if (total === 0) return;
    this.sql.exec("DELETE FROM accepted_per_minute WHERE minute <= ?", minuteOf(now) - minutesCounted);
    this.sql.exec(
      `INSERT INTO accepted_total (singleton, data) VALUES (1, ?)
       ON CONFLICT (singleton) DO UPDATE SET data = data + excluded.data`,
      total,
    );
  }

  /**
   * The latest `limit` rows, newest first. A later batch's datum ids hide the same ids of earlier
   * batches (a batch consumed again); within a batch, a datum sent twice shows twice.
   */
  latest(limit: number): DatumRow[] {
    const latest: DatumRow[] = [];
    const later = new Set<string>();
    const stored = this.sql.exec<{ blocks: ArrayBuffer }>("SELECT blocks FROM recent_block ORDER BY seq DESC");
    for (const { blocks } of stored) {
      for (const block of rowsOfBlocks(new Uint8Array(blocks)).reverse()) {
        for (let index = block.length - 1; index >= 0 && latest.length < limit; index--) {
          if (!later.has(block[index]![0])) latest.push(block[index]!);
        }
        if (latest.length === limit) return latest;
        for (const [id] of block) later.add(id);
      }
    }
    return latest;
  }

  /** Data accepted in each of the last `minutesCounted` minutes, oldest first; the last is the current minute. */
  perMinute(now: number): number[] {
    const current = minuteOf(now);
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
    this.sql.exec("DELETE FROM recent_block");
    this.sql.exec("DELETE FROM accepted_per_minute");
    this.sql.exec("DELETE FROM accepted_total");
  }

  /** Adds row blocks of `rows` rows in all, and drops those that hold none of the latest `recentDataKept` rows. */
  private appendBlocks(blocks: Uint8Array, rows: number): void {
    const before = this.sql
      .exec<{ upto: number }>("SELECT upto FROM recent_block ORDER BY seq DESC LIMIT 1")
      .toArray()[0];
    const upto = (before?.upto ?? 0) + rows;
    this.sql.exec("INSERT INTO recent_block (blocks, upto) VALUES (?, ?)", blocks, upto);
    this.sql.exec("DELETE FROM recent_block WHERE upto <= ?", upto - recentDataKept);
  }
}
