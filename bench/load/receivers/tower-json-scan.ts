import type { ReceivedLine } from "../line-protocol.ts";

/*
 * The bench's receivers take hundreds of thousands of TOWER/JSON elements a second, and parsing
 * each payload whole into objects made them, and not the system under test, the bound of the
 * four-observer case. A payload in the plain shape the service writes is read here in place; any
 * other payload is left to JSON.parse, which judges it.
 */

const comma = 0x2c;
const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Where the value of `key` (its text up to the value, e.g. `"value":`) begins within text[start, end); -1 without it. */
function valueAfter(text: string, key: string, start: number, end: number): number {
  const at = text.indexOf(key, start);
  return at === -1 || at >= end ? -1 : at + key.length;
}

/** The text of `"key":"…"` within text[start, end), when it is there and holds no escape. */
function plainString(text: string, key: string, start: number, end: number): string | undefined {
  const from = valueAfter(text, key, start, end);
  if (from === -1) return undefined;
  const close = text.indexOf('"', from);
  if (close === -1 || close >= end) return undefined;
  const value = text.slice(from, close);
  return value.includes("\\") ? undefined : value;
}

/** The finite number of `"key":…` within text[start, end), when it is there. */
function finiteNumber(text: string, key: string, start: number, end: number): number | undefined {
  const from = valueAfter(text, key, start, end);
  if (from === -1) return undefined;
  // The common case, a whole number of a few digits, without a slice of the text.
  let digits = 0;
  let stop = from;
  for (; stop < end; stop++) {
    const code = text.charCodeAt(stop);
    if (code === comma) break;
    if (code < 0x30 || code > 0x39 || digits > 1e14) {
      digits = -1;
      break;
    }
    digits = digits * 10 + (code - 0x30);
  }
  const leadingZero = text.charCodeAt(from) === 0x30 && stop > from + 1;
  if (digits >= 0 && stop > from && !leadingZero) return digits;
  while (stop < end && text.charCodeAt(stop) !== comma) stop++;
  const raw = text.slice(from, stop);
  // Number() also takes what JSON does not ("", " 1", "0x1", "Infinity").
  if (!jsonNumber.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The elements of a compact TOWER/JSON payload, `[{"resourceId":"…","metric":"…","value":…,…},…]`
 * with flat elements, plain strings and numeric values (keys in any order); undefined for any
 * other text, which the caller reads with JSON.parse instead.
 */
export function scanTowerJson(text: string): ReceivedLine[] | undefined {
  if (text.charCodeAt(0) !== 0x5b || text.charCodeAt(text.length - 1) !== 0x5d) return undefined;
  const elements: ReceivedLine[] = [];
  const last = text.length - 1;
  let at = 1;
  if (at === last) return elements;
  for (;;) {
    if (text.charCodeAt(at) !== 0x7b) return undefined;
    const close = text.indexOf("}", at);
    const nested = text.indexOf("{", at + 1);
    if (close === -1 || (nested !== -1 && nested < close)) return undefined;
    const resourceId = plainString(text, '"resourceId":"', at, close);
    const metric = plainString(text, '"metric":"', at, close);
    const value = finiteNumber(text, '"value":', at, close);
    if (resourceId === undefined || metric === undefined || value === undefined) return undefined;
    elements.push({ resourceId, metric, value });
    at = close + 1;
    if (at === last) return elements;
    if (text.charCodeAt(at) !== comma) return undefined;
    at += 1;
  }
}
