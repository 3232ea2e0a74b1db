/** A label: its name and value, as a protocol sends them. */
export type Label = readonly [key: string, value: string];

/** The type a line-protocol field came with. */
export type LineFieldType = "float" | "integer" | "unsigned" | "boolean";

/** A line-protocol point's measurement, field key and field type. */
export type LineField = readonly [measurement: string, field: string, type: LineFieldType];

/** An agent series' labels, carried beside the resourceId built from them. Shared (one read-only object) by all data of a series in a message. */
export interface SeriesLabels {
  /** The series' labels after `drop=`, sorted by name, each name once: line-protocol tags; Prometheus labels but __name__; OTLP data-point attributes plus the resource attribute used as primary. */
  readonly pairs: readonly Label[];
  /** Line protocol: the point's measurement, field key and field type, so the point can be written again as it came. */
  readonly line?: LineField;
  /** OTLP: the name of the pair that came from a resource attribute (the primary label), which goes back to the resource. */
  readonly resourceAttribute?: string;
}

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
  /** An agent's datum: its series' labels. Data from RDF/JSON, the data collectors and rules' aggregates have none. */
  labels?: SeriesLabels;
}

/**
 * A datum as queue messages and storage carry it: [datum id, timestamp ms, value, resourceId], and
 * an agent's datum its series' labels; a non-finite value travels as its xsd:double lexical form.
 */
export type DatumRow =
  | [string, number, number | "INF" | "-INF" | "NaN", string]
  | [string, number, number | "INF" | "-INF" | "NaN", string, SeriesLabels];

/**
 * Labels with only the parts they have (JSON and equality see no undefined members). Read-only by
 * their type, not frozen: a line-protocol datum has labels of its own, and freezing an object costs
 * several times making it.
 */
export function seriesLabels(pairs: readonly Label[], line?: LineField, resourceAttribute?: string): SeriesLabels {
  if (line === undefined) return resourceAttribute === undefined ? { pairs } : { pairs, resourceAttribute };
  return resourceAttribute === undefined ? { pairs, line } : { pairs, line, resourceAttribute };
}
