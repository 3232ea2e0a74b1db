import type { DatumRow } from "./datum";

/** A value as rows carry it: a non-finite one as its xsd:double lexical form. */
export function rowValue(value: number): DatumRow[2] {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "INF" : "-INF";
}

/** A row's value as a double: the xsd:double spellings a row carries non-finite values in, read back. */
export function rowDouble(value: DatumRow[2]): number {
  if (typeof value === "number") return value;
  return value === "NaN" ? Number.NaN : value === "INF" ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
}
