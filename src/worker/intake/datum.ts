/**
 * One monitoring datum as the service carries it after intake validation. `value` may be NaN or
 * ±Infinity (xsd:double allows them); `timestamp` is milliseconds since the epoch.
 */
export interface Datum {
  /** The sender's datum id (the RDF/JSON subject). */
  id: string;
  metric: string;
  timestamp: number;
  value: number;
  resourceId: string;
}

/** A datum as queue messages and storage carry it: [datum id, timestamp ms, value, resourceId]; a non-finite value travels as its xsd:double lexical form. */
export type DatumRow = [string, number, number | "INF" | "-INF" | "NaN", string];
