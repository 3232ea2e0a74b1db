import type { Descriptor } from "./descriptor-schema";

/** A registered data collector: its description, and when it registered and was last heard from (ms). */
export interface CollectorRecord {
  id: string;
  descriptor: Descriptor;
  registeredAt: number;
  lastHeardAt: number;
}

type CollectorRow = { id: string; descriptor: string; registered_at: number; heard_at: number };

function record(row: CollectorRow): CollectorRecord {
  return {
    id: row.id,
    descriptor: JSON.parse(row.descriptor) as Descriptor,
    registeredAt: row.registered_at,
    lastHeardAt: row.heard_at,
  };
}

/** When a collector heard from at `lastHeardAt` expires (ms), or null if it never does. */
export function expiryOf(collector: Pick<CollectorRecord, "descriptor" | "lastHeardAt">): number | null {
  const keepAlive = collector.descriptor.keepAlive;
  return keepAlive > 0 ? collector.lastHeardAt + keepAlive * 1000 : null;
}

const columns = "id, descriptor, registered_at, heard_at";

/** The collector table: a schema step of the collector registry. */
export const collectorSchema = `
  CREATE TABLE collector (
    id TEXT PRIMARY KEY,
    descriptor TEXT NOT NULL,
    keep_alive_ms INTEGER NOT NULL,
    registered_at INTEGER NOT NULL,
    heard_at INTEGER NOT NULL
  );
`;

/**
 * The registrations in SQLite. The keep-alive is a column of its own so that the expired collectors
 * and the next expiry are found by a query rather than by reading every description.
 */
export class CollectorStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Registers the collector, or replaces the registration of that id; registering counts as being heard from. */
  put(id: string, descriptor: Descriptor, now: number): void {
    this.sql.exec(
      `INSERT INTO collector (id, descriptor, keep_alive_ms, registered_at, heard_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET descriptor = excluded.descriptor, keep_alive_ms = excluded.keep_alive_ms,
         registered_at = excluded.registered_at, heard_at = excluded.heard_at`,
      id,
      JSON.stringify(descriptor),
      Math.max(0, descriptor.keepAlive) * 1000,
      now,
      now,
    );
  }

  get(id: string): CollectorRecord | undefined {
    const row = this.sql.exec<CollectorRow>(`SELECT ${columns} FROM collector WHERE id = ?`, id).toArray()[0];
    return row ? record(row) : undefined;
  }

  /** Every registration, by id. */
  list(): CollectorRecord[] {
    return this.sql.exec<CollectorRow>(`SELECT ${columns} FROM collector ORDER BY id`).toArray().map(record);
  }

  heard(id: string, now: number): void {
    this.sql.exec("UPDATE collector SET heard_at = ? WHERE id = ?", now, id);
  }

  delete(ids: readonly string[]): void {
    for (const id of ids) this.sql.exec("DELETE FROM collector WHERE id = ?", id);
  }

  /** The collectors not heard from within their keep-alive at `now`. */
  expired(now: number): string[] {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM collector WHERE keep_alive_ms > 0 AND heard_at + keep_alive_ms <= ?", now)
      .toArray()
      .map((row) => row.id);
  }

  /** When the next collector expires unless heard from (ms), or null if none can. */
  nextExpiry(): number | null {
    const row = this.sql
      .exec<{ next: number | null }>(
        "SELECT MIN(heard_at + keep_alive_ms) AS next FROM collector WHERE keep_alive_ms > 0",
      )
      .toArray()[0];
    return row?.next ?? null;
  }
}
