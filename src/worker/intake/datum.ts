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
