/**
 * A line-protocol timestamp in whole milliseconds, rounded down (also before 1970). The digits are
 * split where the milliseconds end instead of being divided as a double: a 19-digit nanosecond
 * timestamp is past 2^53, and a double would shift it by whole microseconds.
 */
import { digitsValue, type IntegerProblem, integerDigits } from "./decimal";

/** The units a request's timestamps are in (the route maps InfluxDB 1.x's `n` and `u`). */
export type LinePrecision = "ns" | "us" | "ms" | "s" | "m" | "h";

interface PrecisionRule {
  /** How many trailing digits are below a millisecond. */
  subMillisecondDigits: number;
  millisecondsPerUnit: number;
  /**
   * The largest magnitude whose nanoseconds fit a signed 64-bit integer, as InfluxDB stores them
   * (and rejects anything else); every such time is also within the range of a JavaScript Date.
   */
  limit: string;
  negativeLimit: string;
}

const rules: Record<LinePrecision, PrecisionRule> = {
  ns: {
    subMillisecondDigits: 6,
    millisecondsPerUnit: 1,
    limit: "9223372036854775807",
    negativeLimit: "9223372036854775808",
  },
  us: { subMillisecondDigits: 3, millisecondsPerUnit: 1, limit: "9223372036854775", negativeLimit: "9223372036854775" },
  ms: { subMillisecondDigits: 0, millisecondsPerUnit: 1, limit: "9223372036854", negativeLimit: "9223372036854" },
  s: { subMillisecondDigits: 0, millisecondsPerUnit: 1_000, limit: "9223372036", negativeLimit: "9223372036" },
  m: { subMillisecondDigits: 0, millisecondsPerUnit: 60_000, limit: "153722867", negativeLimit: "153722867" },
  h: { subMillisecondDigits: 0, millisecondsPerUnit: 3_600_000, limit: "2562047", negativeLimit: "2562047" },
};

const zero = 48;
const minus = 45;

/** The timestamp `text[start, end)` (an optional minus, then digits) in `precision`, as milliseconds. */
export function timestampMilliseconds(
  text: string,
  start: number,
  end: number,
  precision: LinePrecision,
): number | IntegerProblem {
  const rule = rules[precision];
  const first = integerDigits(text, start, end, rule.limit, rule.negativeLimit);
  if (typeof first === "string") return first;
  const split = Math.max(first, end - rule.subMillisecondDigits);
  const milliseconds = digitsValue(text, first, split) * rule.millisecondsPerUnit;
  if (text.charCodeAt(start) !== minus) return milliseconds;
  let belowMillisecond = false;
  for (let index = split; index < end && !belowMillisecond; index++) belowMillisecond = text.charCodeAt(index) !== zero;
  // `0 -` so that -0 is 0; a remainder below the millisecond rounds a negative time down.
  return 0 - milliseconds - (belowMillisecond ? 1 : 0);
}
