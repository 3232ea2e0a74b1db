/** JSON.rawJSON (ES2025): V8 has it; TypeScript's es2024 library does not declare it yet. */
const rawJson = (JSON as JSON & { rawJSON(text: string): unknown }).rawJSON.bind(JSON);

/** JSON.stringify writes negative zero as `0`; this is written `-0`, which JSON.parse reads back as -0. */
const negativeZero = rawJson("-0");

/** A double as JSON.stringify should write it: as itself, but negative zero with its sign. */
export function jsonDouble(value: number): unknown {
  return Object.is(value, -0) ? negativeZero : value;
}
