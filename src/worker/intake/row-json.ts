import { jsonDouble } from "../../shared/json-double";
import type { DatumRow } from "./datum";

/** A row as JSON.stringify should write it: negative zero keeps its sign, which JSON.stringify drops. */
export function jsonRow(row: DatumRow): readonly unknown[] {
  return Object.is(row[2], -0) ? [row[0], row[1], jsonDouble(-0), row[3]] : row;
}

/** Rows as JSON text that JSON.parse reads back to the same rows, negative zero included. */
export function rowsJson(rows: readonly DatumRow[]): string {
  return JSON.stringify(rows.map(jsonRow));
}
