import { BytesTable } from "./bytes-table";

/*
 * Short UTF-8 strings decoded once and then found again by their bytes. An agent's request repeats
 * the same label names and values in series after series (every remote-write series names `job`
 * and `instance`, every OTLP point its attribute keys); decoding each occurrence costs a call into
 * the runtime and a new string, and most of the request's garbage. The table is the isolate's;
 * strings of more than 64 bytes are rarely repeated, and cost more to compare than to decode.
 */
const decoded = new BytesTable<string>(8_192, 64);

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
  const known = decoded.find(bytes, start, end);
  if (known !== undefined) return known;
  const text = decode(bytes.subarray(start, end));
  decoded.keep(bytes, start, end, text);
  return text;
}
