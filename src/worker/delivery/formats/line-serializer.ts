import type { Datum } from "../../intake/datum";
import type { ObserverFormat } from "../../metrics/observer-kinds";
import type { Serializer } from "./serializer";

/**
 * A format of one text line per datum (GRAPHITE, INFLUXDB). `line` returns undefined for a datum
 * the format cannot carry; no payload is made when no datum is left.
 */
export function lineSerializer(format: ObserverFormat, line: (datum: Datum) => string | undefined): Serializer {
  const linesOf = (data: readonly Datum[]): string[] => {
    const lines: string[] = [];
    for (const datum of data) {
      const text = line(datum);
      if (text !== undefined) lines.push(text);
    }
    return lines;
  };
  return {
    format,
    // Resource ids and metric names are Unicode; without a charset, text/plain means US-ASCII.
    contentType: "text/plain; charset=utf-8",
    packing: "lines",
    payloads(data) {
      const lines = linesOf(data);
      return lines.length > 0 ? [lines.join("")] : [];
    },
    records: linesOf,
  };
}
