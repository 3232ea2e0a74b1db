import type { Datum } from "../../intake/datum";
import type { ObserverFormat } from "../../metrics/observer-kinds";

/** How UDP may split a payload: whole lines packed per datagram, or one datum's document each. */
export type DatagramPacking = "lines" | "one-per-datagram";

/** Turns data into the bytes an observer of one format receives (docs/API.md, "Formats"). */
export interface Serializer {
  readonly format: ObserverFormat;
  /** Content-Type of an HTTP delivery. */
  readonly contentType: string;
  readonly packing: DatagramPacking;
  /**
   * Bodies of HTTP/TCP deliveries carrying `data`, normally exactly one. A format that cannot hold
   * two data with the same id in one document (RDF/JSON subjects) returns more, never dropping one.
   */
  payloads(data: readonly Datum[]): string[];
  /** The units a UDP delivery may not split: one line, or one single-datum document, per datum. */
  records(data: readonly Datum[]): string[];
}
