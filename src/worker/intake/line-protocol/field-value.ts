/**
 * An unquoted line-protocol field value as a double: floats, integers (`i`), unsigned integers
 * (`u`) and booleans (1 or 0), in line protocol's grammar (decimal only) and within InfluxDB's
 * 64-bit ranges. NaN and infinities have no spelling in line protocol, and a float too large for
 * a double is out of range, so every value read is finite.
 */
import type { LineFieldType } from "../../vocabulary/datum";
import { digitsValue, integerDigits } from "./decimal";

export type FieldValueProblem =
  | "invalid boolean"
  | "invalid integer"
  | "integer out of range"
  | "invalid unsigned integer"
  | "unsigned integer out of range"
  | "invalid number"
  | "number out of range"
  | "unknown value type";

const plus = 43;
const minus = 45;
const dot = 46;
const zero = 48;
const nine = 57;
const upperE = 69;
const upperF = 70;
const upperT = 84;
const lowerE = 101;
const lowerF = 102;
const lowerI = 105;
const lowerT = 116;
const lowerU = 117;

const maxInt64 = "9223372036854775807";
const minInt64Magnitude = "9223372036854775808";
const maxUint64 = "18446744073709551615";

const trueSpellings = ["true", "True", "TRUE"];
const falseSpellings = ["false", "False", "FALSE"];

/** Powers of ten a double holds exactly. */
const exactPowersOfTen = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
/** Significant digits a double holds exactly (below 2^53). */
const exactDigits = 15;
/** Past this, an exponent's digits are not accumulated further: the value is 0 or out of range anyway. */
const exponentCeiling = 100_000;

/** The character at `index` of a token ending at `end`, or 0 past its end. */
function codeAt(text: string, index: number, end: number): number {
  return index < end ? text.charCodeAt(index) : 0;
}

const isDigit = (code: number) => code >= zero && code <= nine;

/**
 * The type the unquoted field value `text[start, end)` (not empty) is written as, by its first and
 * last characters; whether it is a valid value of that type is `fieldValue`'s to say.
 */
export function fieldType(text: string, start: number, end: number): LineFieldType | "unknown value type" {
  const first = text.charCodeAt(start);
  if (first === lowerT || first === upperT || first === lowerF || first === upperF) return "boolean";
  if (first !== minus && first !== dot && !isDigit(first)) return "unknown value type";
  const last = text.charCodeAt(end - 1);
  return last === lowerI ? "integer" : last === lowerU ? "unsigned" : "float";
}

/** The value of the unquoted field value `text[start, end)` (not empty) of its `type`, or why it is none. */
export function fieldValue(
  text: string,
  start: number,
  end: number,
  type = fieldType(text, start, end),
): number | FieldValueProblem {
  switch (type) {
    case "boolean":
      return booleanValue(text, start, end);
    case "integer":
      return integerValue(text, start, end - 1);
    case "unsigned":
      return unsignedValue(text, start, end - 1);
    case "float":
      return floatValue(text, start, end);
    default:
      return type;
  }
}

function booleanValue(text: string, start: number, end: number): number | FieldValueProblem {
  const first = text.charCodeAt(start);
  const isTrue = first === lowerT || first === upperT;
  if (end - start === 1) return isTrue ? 1 : 0;
  for (const spelling of isTrue ? trueSpellings : falseSpellings) {
    if (end - start === spelling.length && text.startsWith(spelling, start)) return isTrue ? 1 : 0;
  }
  return "invalid boolean";
}

function integerValue(text: string, start: number, end: number): number | FieldValueProblem {
  const first = integerDigits(text, start, end, maxInt64, minInt64Magnitude);
  if (first === "invalid") return "invalid integer";
  if (first === "out of range") return "integer out of range";
  const magnitude = digitsValue(text, first, end);
  // `0 -` rather than a unary minus: `-0i` is the integer 0, not the double -0.
  return text.charCodeAt(start) === minus ? 0 - magnitude : magnitude;
}

function unsignedValue(text: string, start: number, end: number): number | FieldValueProblem {
  const first = integerDigits(text, start, end, maxUint64);
  if (first === "invalid") return "invalid unsigned integer";
  if (first === "out of range") return "unsigned integer out of range";
  return digitsValue(text, first, end);
}

/**
 * `[-] digits [. [digits]] [exponent] | [-] . digits [exponent]`. Few significant digits and a
 * small exponent are computed in place (one exact integer times or divided by an exact power of
 * ten rounds correctly); anything else is left to Number(), whose rounding is correct as well.
 */
function floatValue(text: string, start: number, end: number): number | FieldValueProblem {
  let index = start;
  const negative = codeAt(text, index, end) === minus;
  if (negative) index++;
  let mantissa = 0;
  let significantDigits = 0;
  let digits = 0;
  let fractionDigits = 0;
  let code = codeAt(text, index, end);
  for (; isDigit(code); code = codeAt(text, ++index, end)) {
    if (mantissa !== 0 || code !== zero) significantDigits++;
    mantissa = mantissa * 10 + (code - zero);
    digits++;
  }
  if (code === dot) {
    for (code = codeAt(text, ++index, end); isDigit(code); code = codeAt(text, ++index, end)) {
      if (mantissa !== 0 || code !== zero) significantDigits++;
      mantissa = mantissa * 10 + (code - zero);
      fractionDigits++;
    }
  }
  if (digits + fractionDigits === 0) return "invalid number";
  let exponent = 0;
  if (code === lowerE || code === upperE) {
    code = codeAt(text, ++index, end);
    const negativeExponent = code === minus;
    if (negativeExponent || code === plus) code = codeAt(text, ++index, end);
    const exponentStart = index;
    for (; isDigit(code); code = codeAt(text, ++index, end)) {
      exponent = Math.min(exponent * 10 + (code - zero), exponentCeiling);
    }
    if (index === exponentStart) return "invalid number";
    if (negativeExponent) exponent = -exponent;
  }
  if (index !== end) return "invalid number";
  const scale = exponent - fractionDigits;
  if (significantDigits <= exactDigits && scale >= -22 && scale <= 22) {
    const magnitude = scale < 0 ? mantissa / exactPowersOfTen[-scale]! : mantissa * exactPowersOfTen[scale]!;
    return negative ? -magnitude : magnitude;
  }
  const value = Number(text.slice(start, end));
  return Number.isFinite(value) ? value : "number out of range";
}
