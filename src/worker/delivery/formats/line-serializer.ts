import type { StreamFormat } from "../../metrics/observer-kinds";
import type { DatumRow } from "../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../vocabulary/delivery";
import type { Serializer, StreamSerializer } from "./serializer";

/**
 * Writes the line of one datum of the metric it was made for, or undefined for a datum the format
 * cannot carry. Made once per run, so that what depends on the metric alone is done once.
 */
export type LineWriter = (row: DatumRow) => string | undefined;

/** The lines of the runs' data, one per datum that `writerFor` can write. */
export function perDatumLines(writerFor: (metric: string) => LineWriter): (runs: readonly MetricRun[]) => string[] {
  return (runs) => {
    const written: string[] = [];
    for (const [metric, rows] of runs) {
      const line = writerFor(metric);
      for (const row of rows) {
        const text = line(row);
        if (text !== undefined) written.push(text);
      }
    }
    return written;
  };
}

/** A format of text lines (GRAPHITE, INFLUXDB); no payload is made when no line is left. */
export function lineSerializer(
  format: StreamFormat,
  answers: Serializer["answers"],
  linesOf: (runs: readonly MetricRun[], changes?: LabelChanges) => string[],
): StreamSerializer {
  return {
    format,
    // Resource ids and metric names are Unicode; without a charset, text/plain means US-ASCII.
    contentType: "text/plain; charset=utf-8",
    headers: {},
    answers,
    packing: "lines",
    payloads(runs, changes) {
      const written = linesOf(runs, changes);
      return written.length > 0 ? [written.join("")] : [];
    },
    records: linesOf,
  };
}
