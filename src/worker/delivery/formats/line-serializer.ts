import type { DatumRow } from "../../intake/datum";
import type { ObserverFormat } from "../../metrics/observer-kinds";
import type { Serializer } from "./serializer";

/**
 * Writes the line of one datum of the metric it was made for, or undefined for a datum the format
 * cannot carry. Made once per payload, so that what depends on the metric alone is done once.
 */
export type LineWriter = (row: DatumRow) => string | undefined;

/** A format of one text line per datum (GRAPHITE, INFLUXDB); no payload is made when no datum is left. */
export function lineSerializer(format: ObserverFormat, writerFor: (metric: string) => LineWriter): Serializer {
  const lines = (metric: string, rows: readonly DatumRow[]): string[] => {
    const line = writerFor(metric);
    const written: string[] = [];
    for (const row of rows) {
      const text = line(row);
      if (text !== undefined) written.push(text);
    }
    return written;
  };
  return {
    format,
    // Resource ids and metric names are Unicode; without a charset, text/plain means US-ASCII.
    contentType: "text/plain; charset=utf-8",
    packing: "lines",
    payloads(metric, rows) {
      const written = lines(metric, rows);
      return written.length > 0 ? [written.join("")] : [];
    },
    records: lines,
  };
}
