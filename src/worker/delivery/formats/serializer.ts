import type { ObserverFormat } from "../../metrics/observer-kinds";
import type { LabelChanges, MetricRun } from "../../vocabulary/delivery";

/** How UDP may split a payload: whole lines packed per datagram, or one datum's document each. */
export type DatagramPacking = "lines" | "one-per-datagram";

/** A request's body: text, or the bytes of a binary format (protobuf). */
export type PayloadBody = string | Uint8Array;

/**
 * Turns data into the bytes an observer of one format receives (docs/API.md, "Formats"). Data come
 * as runs of the rows that queue messages and backlogs carry, each run of one metric (a per-metric
 * observer's payload is one run, a selector observer's one run per metric it holds), so what
 * depends on the metric alone is written once per run, not once per datum. A format that carries
 * labels applies the observer's label changes.
 */
export interface Serializer {
  readonly format: ObserverFormat;
  /** Content-Type of an HTTP delivery. */
  readonly contentType: string;
  /** Headers an HTTP delivery of the format carries besides its content type. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * How the observer's answers are read: as webhooks are (2xx delivered, 410 gone, anything else
   * retried), or as a metrics backend means them (400, 409 and 422 refuse the data for good, 413
   * asks for smaller payloads; docs/API.md, "Outputs for metric backends").
   */
  readonly answers: "webhook" | "backend";
  /**
   * Bodies of HTTP/TCP deliveries carrying `runs`, normally exactly one. A format that cannot hold
   * two data with the same id in one document (RDF/JSON subjects), or more than so many samples in
   * a request (remote write), returns more, never dropping one.
   */
  payloads(runs: readonly MetricRun[], changes?: LabelChanges): PayloadBody[];
}

/** A format of text that TCP and UDP observers can take too. */
export interface StreamSerializer extends Serializer {
  readonly packing: DatagramPacking;
  payloads(runs: readonly MetricRun[], changes?: LabelChanges): string[];
  /** The units a UDP delivery may not split: one line, or one single-datum document, per datum. */
  records(runs: readonly MetricRun[], changes?: LabelChanges): string[];
}
