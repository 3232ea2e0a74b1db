import { type LineWriter, lineSerializer } from "./line-serializer";
import { formatFiniteDouble } from "./number-format";

/*
 * InfluxDB line protocol, as its reference encoder (github.com/influxdata/line-protocol) writes it:
 * commas and spaces are escaped in a measurement; commas, equals signs and spaces in a tag key or
 * value. Backslashes are never escaped: a reader keeps a backslash that does not precede one of
 * those characters. Some data have no line a reader would read back as they are, and are left out
 * of INFLUXDB payloads (the other formats still carry them):
 * - a NaN or infinite value: a float field has no spelling for them;
 * - a metric or resource id holding ASCII control characters (a newline would end the line), or
 *   ending in a backslash, which would escape the separator after it;
 * - a metric starting with `#`, which makes the line a comment;
 * - a time outside the signed 64-bit nanoseconds readers parse (before 1677 or after 2262).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding ASCII control characters is its purpose.
const asciiControl = /[\u0000-\u001f\u007f]/;

function isEncodable(text: string): boolean {
  return !asciiControl.test(text) && !text.endsWith("\\");
}

const escapeMeasurement = (text: string) => text.replace(/[, ]/g, "\\$&");
const escapeTag = (text: string) => text.replace(/[,= ]/g, "\\$&");

const minNanoseconds = -(2n ** 63n);
const maxNanoseconds = 2n ** 63n - 1n;

const noLine = () => undefined;

function influxLineWriter(metric: string): LineWriter {
  if (metric === "" || metric.startsWith("#") || !isEncodable(metric)) return noLine;
  const measurement = escapeMeasurement(metric);
  return ([, timestamp, value, resourceId]) => {
    // BigInt: milliseconds times a million passes 2^53, where doubles lose digits.
    const nanoseconds = BigInt(timestamp) * 1_000_000n;
    const carried =
      typeof value === "number" &&
      Number.isFinite(value) &&
      isEncodable(resourceId) &&
      nanoseconds >= minNanoseconds &&
      nanoseconds <= maxNanoseconds;
    if (!carried) return undefined;
    // The protocol has no empty tag values; the tag is omitted instead.
    const tags = resourceId === "" ? "" : `,resourceId=${escapeTag(resourceId)}`;
    return `${measurement}${tags} value=${formatFiniteDouble(value)} ${nanoseconds}\n`;
  };
}

export const influxDbSerializer = lineSerializer("INFLUXDB", influxLineWriter);
