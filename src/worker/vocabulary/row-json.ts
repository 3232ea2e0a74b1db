import { jsonDouble } from "../common/json-double";
import type { DatumRow } from "./datum";

/** A row as JSON.stringify should write it: negative zero keeps its sign, which JSON.stringify drops; labels stay. */
export function jsonRow(row: DatumRow): readonly unknown[] {
  if (!Object.is(row[2], -0)) return row;
  const written: unknown[] = [...row];
  written[2] = jsonDouble(-0);
  return written;
}

/** Rows as JSON text that JSON.parse reads back to the same rows, negative zero and labels included. */
export function rowsJson(rows: readonly DatumRow[]): string {
  return JSON.stringify(rows.map(jsonRow));
}
