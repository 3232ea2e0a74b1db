import type { DatumRow, Label, LineFieldType, SeriesLabels } from "../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../vocabulary/delivery";
import { labelChanger } from "./label-changes";
import { lineSerializer } from "./line-serializer";
import { formatFiniteDouble } from "./number-format";

/*
 * InfluxDB line protocol, as its reference encoder (github.com/influxdata/line-protocol) writes it:
 * commas and spaces are escaped in a measurement; commas, equals signs and spaces in a tag key or
 * value and a field key. Backslashes are never escaped: a reader keeps a backslash that does not
 * precede one of those characters.
 *
 * Data that came as line protocol go out as the points they were: their measurement, their tags
 * sorted, each field with the type it came with, the fields of one series and time in one line.
 * Other data with labels are `<metric>,<labels> value=<v>`; data without labels carry their
 * resourceId as the one tag. An observer's label changes apply to the tags.
 *
 * Some data have no line a reader would read back as they are, and are left out of INFLUXDB
 * payloads (the other formats still carry them):
 * - a NaN or infinite value: a float field has no spelling for them;
 * - a name or tag holding ASCII control characters (a newline would end the line), or ending in a
 *   backslash, which would escape the separator after it;
 * - a measurement starting with `#`, which makes the line a comment;
 * - a time outside the signed 64-bit nanoseconds readers parse (before 1677 or after 2262).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding ASCII control characters is its purpose.
const asciiControl = /[\u0000-\u001f\u007f]/;

function isEncodable(text: string): boolean {
  return !asciiControl.test(text) && !text.endsWith("\\");
}

const escapeMeasurement = (text: string) => text.replace(/[, ]/g, "\\$&");
const escapeKey = (text: string) => text.replace(/[,= ]/g, "\\$&");

/** The most milliseconds whose nanoseconds fit the signed 64 bits readers parse (2262-04-11). */
const maxMilliseconds = 9_223_372_036_854;

/** A time in milliseconds as nanoseconds, written exactly (digits appended, no float); undefined outside the range readers parse. */
function nanosecondsText(timestamp: number): string | undefined {
  if (!Number.isInteger(timestamp) || timestamp > maxMilliseconds || timestamp < -maxMilliseconds) return undefined;
  return timestamp === 0 ? "0" : `${timestamp}000000`;
}

/** The tags of a line, `,key=value` each; undefined when one cannot be written. The protocol has no empty tag values: such a tag is left out. */
function tagsText(tags: readonly Label[]): string | undefined {
  let text = "";
  for (const [key, value] of tags) {
    if (value === "") continue;
    if (key === "" || !isEncodable(key) || !isEncodable(value)) return undefined;
    text += `,${escapeKey(key)}=${escapeKey(value)}`;
  }
  return text;
}

/** A field's value in the type it came with; undefined for a value that type cannot spell. */
function fieldValue(value: DatumRow[2], type: LineFieldType): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  switch (type) {
    case "boolean":
      return value !== 0 ? "true" : "false";
    case "integer":
      return Number.isInteger(value) ? `${value}i` : formatFiniteDouble(value);
    case "unsigned":
      return Number.isInteger(value) && value >= 0 ? `${value}u` : formatFiniteDouble(value);
    case "float":
      return formatFiniteDouble(value);
  }
}

/** `<measurement><tags>`, the part of a line before its fields; undefined when it cannot be written. */
function lineHead(measurement: string, tags: readonly Label[]): string | undefined {
  if (measurement === "" || measurement.startsWith("#") || !isEncodable(measurement)) return undefined;
  const text = tagsText(tags);
  return text === undefined ? undefined : `${escapeMeasurement(measurement)}${text}`;
}

/** A line-protocol point being gathered: its head and time, and its fields so far. */
interface Point {
  head: string;
  time: string;
  fields: Map<string, string>;
}

function pointLine({ head, time, fields }: Point): string {
  let fieldsText = "";
  for (const [field, written] of fields) fieldsText += `${fieldsText === "" ? "" : ","}${escapeKey(field)}=${written}`;
  return `${head} ${fieldsText} ${time}\n`;
}

/**
 * The points of the runs, one line each, in the order their first field came. A line's head is
 * worked out once per series of the payload: per label set (data of one agent series share one),
 * or per resourceId for data without labels. Only data that came as line protocol gather fields
 * into a point (per series and time; a field met again starts another); any other datum is a line
 * of its own, written at once.
 */
function influxLines(runs: readonly MetricRun[], changes?: LabelChanges): string[] {
  const changed = labelChanger(changes);
  const lines: (string | Point)[] = [];
  const points = new Map<string, Point>();
  // A payload's data share few times (an agent's scrape stamps a whole batch alike): each is written once.
  const times = new Map<number, string | null>();
  for (const [metric, rows] of runs) {
    // null: the series has no head that can be written.
    const heads = new Map<SeriesLabels | string, string | null>();
    for (const [, timestamp, value, resourceId, labels] of rows) {
      let time = times.get(timestamp);
      if (time === undefined) {
        time = nanosecondsText(timestamp) ?? null;
        times.set(timestamp, time);
      }
      const line = labels?.line;
      const [, field, type] = line ?? defaultField;
      const written = fieldValue(value, type);
      if (time === null || written === undefined) continue;
      const source = labels ?? resourceId;
      let head = heads.get(source);
      if (head === undefined) {
        head = lineHead(line?.[0] ?? metric, changed(labels?.pairs ?? [["resourceId", resourceId]])) ?? null;
        heads.set(source, head);
      }
      if (head === null) continue;
      if (line === undefined) {
        lines.push(`${head} value=${written} ${time}\n`);
        continue;
      }
      if (field === "" || !isEncodable(field)) continue;
      let key = `${head} ${time}`;
      while (points.get(key)?.fields.has(field)) key += "\u0000";
      const point = points.get(key);
      if (point) point.fields.set(field, written);
      else {
        const added = { head, time, fields: new Map([[field, written]]) };
        points.set(key, added);
        lines.push(added);
      }
    }
  }
  return lines.map((line) => (typeof line === "string" ? line : pointLine(line)));
}

/** The field of data that did not come as line protocol. */
const defaultField = ["", "value", "float"] as const;

export const influxDbSerializer = lineSerializer("INFLUXDB", "backend", influxLines);
