/*
 * Short UTF-8 strings decoded once and then found again by their bytes. An agent's request repeats
 * the same label names and values in series after series (every remote-write series names `job`
 * and `instance`, every OTLP point its attribute keys); decoding each occurrence costs a call into
 * the runtime and a new string, and most of the request's garbage. The table is the isolate's and
 * bounded: past `maxEntries` it starts again empty.
 */

/** Longer strings are rarely repeated and cost more to compare than to decode. */
const maxInternedBytes = 64;
const maxEntries = 8_192;

interface Entry {
  bytes: Uint8Array;
  text: string;
}

const entries = new Map<number, Entry>();

function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  return hash ^ (end - start);
}

function sameBytes(entry: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (entry.length !== end - start) return false;
  for (let index = 0; index < entry.length; index++) if (entry[index] !== bytes[start + index]) return false;
  return true;
}

/**
 * The text of `bytes[start, end)`, decoded by `decode` (which throws for bytes that are not
 * UTF-8, as it would without the table) unless the same bytes were decoded before.
 */
export function internedUtf8(
  bytes: Uint8Array,
  start: number,
  end: number,
  decode: (view: Uint8Array) => string,
): string {
  if (end - start > maxInternedBytes) return decode(bytes.subarray(start, end));
  const hash = hashOf(bytes, start, end);
  const known = entries.get(hash);
  if (known !== undefined && sameBytes(known.bytes, bytes, start, end)) return known.text;
  const copy = bytes.slice(start, end);
  const text = decode(copy);
  if (entries.size >= maxEntries) entries.clear();
  entries.set(hash, { bytes: copy, text });
  return text;
}
