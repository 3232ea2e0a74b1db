import { type Accumulator, mergeAccumulators, newAccumulator } from "../aggregation/accumulator";
import { parseWithNonFinite, stringifyWithNonFinite } from "../aggregation/non-finite-json";

type PaneRow = { start: number; resource_id: string; accumulator: string };

function encodeAccumulator(accumulator: Accumulator): string {
  return stringifyWithNonFinite(accumulator);
}

function decodeAccumulator(text: string): Accumulator {
  return parseWithNonFinite(text) as Accumulator;
}

/** The pane table: a schema step of the rule's object. */
export const paneSchema = `
  CREATE TABLE pane (
    start INTEGER NOT NULL,
    resource_id TEXT NOT NULL,
    accumulator TEXT NOT NULL,
    PRIMARY KEY (start, resource_id)
  );
`;

/**
 * A rule's open windows, as accumulators per pane and resource in the rule's SQLite storage: one
 * row per resource that sent data in a pane, however many data it sent. Callers decide the transaction.
 */
export class PaneStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Adds a batch's accumulators (by pane, then resource) to the stored ones. */
  add(byPane: ReadonlyMap<number, ReadonlyMap<string, Accumulator>>): void {
    for (const [start, byResource] of byPane) {
      for (const [resourceId, accumulator] of byResource) {
        const stored = this.sql
          .exec<PaneRow>("SELECT accumulator FROM pane WHERE start = ? AND resource_id = ?", start, resourceId)
          .toArray()[0];
        if (stored) {
          const merged = decodeAccumulator(stored.accumulator);
          mergeAccumulators(merged, accumulator);
          this.sql.exec(
            "UPDATE pane SET accumulator = ? WHERE start = ? AND resource_id = ?",
            encodeAccumulator(merged),
            start,
            resourceId,
          );
        } else {
          this.sql.exec(
            "INSERT INTO pane (start, resource_id, accumulator) VALUES (?, ?, ?)",
            start,
            resourceId,
            encodeAccumulator(accumulator),
          );
        }
      }
    }
  }

  /** The start of every pane that holds data. */
  starts(): number[] {
    return this.sql
      .exec<{ start: number }>("SELECT DISTINCT start FROM pane ORDER BY start")
      .toArray()
      .map((row) => row.start);
  }

  /** The accumulators of the panes in [from, to), merged per resource. */
  window(from: number, to: number, keepValues: boolean): Map<string, Accumulator> {
    const byResource = new Map<string, Accumulator>();
    const rows = this.sql.exec<PaneRow>(
      "SELECT start, resource_id, accumulator FROM pane WHERE start >= ? AND start < ? ORDER BY start",
      from,
      to,
    );
    for (const row of rows) {
      let merged = byResource.get(row.resource_id);
      if (!merged) {
        merged = newAccumulator(keepValues);
        byResource.set(row.resource_id, merged);
      }
      mergeAccumulators(merged, decodeAccumulator(row.accumulator));
    }
    return byResource;
  }

  /** Removes the panes that start before `start`. */
  dropBefore(start: number): void {
    this.sql.exec("DELETE FROM pane WHERE start < ?", start);
  }

  clear(): void {
    this.sql.exec("DELETE FROM pane");
  }
}
