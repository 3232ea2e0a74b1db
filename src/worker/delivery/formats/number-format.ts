import type { DatumRow } from "../../vocabulary/datum";

/** How a format spells the doubles that have no decimal form. */
export interface NonFiniteSpelling {
  readonly nan: string;
  readonly infinity: string;
  readonly negativeInfinity: string;
}

/**
 * The shortest decimal that reads back as the same double (ECMAScript Number::toString, e.g.
 * `0.1`, `1e+21`, `5e-7`). xsd:double, JSON, carbon (Python `float`) and the line protocol (Go
 * `ParseFloat`) all read this form. Negative zero keeps its sign, which `String` drops.
 */
export function formatFiniteDouble(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

/** A row's value, which carries a non-finite double as its xsd:double lexical form, in a format's spelling. */
export function formatDouble(value: DatumRow[2], nonFinite: NonFiniteSpelling): string {
  if (typeof value === "number" && Number.isFinite(value)) return formatFiniteDouble(value);
  if (value === "NaN" || Number.isNaN(value)) return nonFinite.nan;
  return value === "INF" || value === Number.POSITIVE_INFINITY ? nonFinite.infinity : nonFinite.negativeInfinity;
}
