import type { DatumRow } from "../../vocabulary/datum";

/** A row's value as a double: the xsd:double spellings a row carries non-finite values in, read back. */
export function rowDouble(value: DatumRow[2]): number {
  if (typeof value === "number") return value;
  return value === "NaN" ? Number.NaN : value === "INF" ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
}
