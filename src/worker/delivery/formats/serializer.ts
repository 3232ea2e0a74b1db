import type { DatumRow } from "../../intake/datum";
import type { ObserverFormat } from "../../metrics/observer-kinds";

/** How UDP may split a payload: whole lines packed per datagram, or one datum's document each. */
export type DatagramPacking = "lines" | "one-per-datagram";

/**
 * Turns data into the bytes an observer of one format receives (docs/API.md, "Formats"). Data come
 * as the rows that queue messages and backlogs carry, all of one metric: a delivery never mixes
 * metrics, so what depends on the metric alone is written once per payload, not once per datum.
 */
export interface Serializer {
  readonly format: ObserverFormat;
  /** Content-Type of an HTTP delivery. */
  readonly contentType: string;
  readonly packing: DatagramPacking;
  /**
   * Bodies of HTTP/TCP deliveries carrying `rows`, normally exactly one. A format that cannot hold
   * two data with the same id in one document (RDF/JSON subjects) returns more, never dropping one.
   */
  payloads(metric: string, rows: readonly DatumRow[]): string[];
  /** The units a UDP delivery may not split: one line, or one single-datum document, per datum. */
  records(metric: string, rows: readonly DatumRow[]): string[];
}
