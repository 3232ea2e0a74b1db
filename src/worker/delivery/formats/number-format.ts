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

export function formatDouble(value: number, nonFinite: NonFiniteSpelling): string {
  if (Number.isNaN(value)) return nonFinite.nan;
  if (value === Number.POSITIVE_INFINITY) return nonFinite.infinity;
  if (value === Number.NEGATIVE_INFINITY) return nonFinite.negativeInfinity;
  return formatFiniteDouble(value);
}
