/**
 * Decimal integers of line protocol (`i` and `u` field values, timestamps), read in place from the
 * request's text: 64-bit bounds are checked on the digits themselves, because past 2^53 a double
 * can no longer tell an integer from its neighbours.
 */

export type IntegerProblem = "invalid" | "out of range";

const minus = 45;
const zero = 48;
const nine = 57;

/** Above this many digits a run of digits is no longer exact as it is accumulated in a double. */
const exactDigits = 15;

/**
 * Checks that `text[start, end)` is an integer (a minus only when `negativeLimit` is given, then
 * decimal digits, leading zeros allowed) whose magnitude is at most `limit`, or `negativeLimit`
 * when negative; limits are digit strings without leading zeros. Returns the index of its first
 * significant digit (`end` for zero), or what is wrong with it.
 */
export function integerDigits(
  text: string,
  start: number,
  end: number,
  limit: string,
  negativeLimit?: string,
): number | IntegerProblem {
  let index = start;
  const negative = negativeLimit !== undefined && index < end && text.charCodeAt(index) === minus;
  if (negative) index++;
  if (index === end) return "invalid";
  let first = end;
  for (; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < zero || code > nine) return "invalid";
    if (code !== zero && first === end) first = index;
  }
  const bound = negative ? negativeLimit : limit;
  const length = end - first;
  if (length < bound.length) return first;
  if (length > bound.length) return "out of range";
  for (let offset = 0; offset < length; offset++) {
    const difference = text.charCodeAt(first + offset) - bound.charCodeAt(offset);
    if (difference !== 0) return difference < 0 ? first : "out of range";
  }
  return first;
}

/** The value of the decimal digits `text[start, end)`: exact up to 2^53, else the nearest double. */
export function digitsValue(text: string, start: number, end: number): number {
  if (end - start > exactDigits) return Number(text.slice(start, end));
  let value = 0;
  for (let index = start; index < end; index++) value = value * 10 + (text.charCodeAt(index) - zero);
  return value;
}
