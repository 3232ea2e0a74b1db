import type { Datum, DatumRow } from "./datum";

/*
 * The bytes of an intake queue message. As JSON, most of a message's cost was its numbers, each
 * timestamp and value written as decimal text and read back, and its resourceIds, written once per
 * datum. Here the numbers travel as IEEE doubles, each resourceId once per message, and all texts
 * (metric names, datum ids, resourceIds) as one string, decoded by one call and cut by lengths.
 *
 * Little-endian; offsets in bytes:
 *    0  u32  layout version (1)
 *    4  u32  groups: the metrics of the message
 *    8  u32  rows: its data
 *   12  u32  resources: its distinct resourceIds
 *   16  u32  the texts' encoding: 0 UTF-8; 1 UTF-16, for texts holding an unpaired surrogate,
 *            which UTF-8 cannot carry and a datum may (JSON can)
 *   20  u32  the texts' bytes
 *   24  u32  the journal reference's bytes (0: not journaled)
 *   28  u32  0
 *   32  f64 × rows: the timestamps; then f64 × rows: the values
 *       u32 × groups: each group's rows
 *       u32 × rows: each row's resource, an index into the resourceIds
 *       u32 × (groups + rows + resources): each text's length in UTF-16 code units
 *       the texts: the metric names, then the datum ids, then the resourceIds
 *       the journal reference: its JSON in UTF-8
 */

/** Where a message waits in the intake journal until it is consumed: the shard, and the entry there. */
export type JournalReference = [shard: number, entry: string];

/** Accepted data, grouped by metric: [metric, rows][] (an array, so any metric name is a safe key). */
export interface IntakeMessage {
  metrics: [string, DatumRow[]][];
  /** Set when the message was journaled (journal/): its consumer clears the entry. */
  journal?: JournalReference;
}

/** A run of one metric's data in a message. */
export type MessageGroup = readonly [metric: string, data: readonly Datum[]];

const layoutVersion = 1;
export const headerBytes = 32;
/** A row's bytes besides its id's text: two doubles, its resource's index and its id's length. */
export const rowBytes = 8 + 8 + 4 + 4;
/** A group's bytes besides its metric's text: its row count and its name's length. */
export const groupBytes = 4 + 4;
/** A resourceId's bytes besides its text: its length. */
export const resourceBytes = 4;
const utf8Texts = 0;
const utf16Texts = 1;
const journalLengthAt = 24;

const nonAscii = /\P{ASCII}/u;
const unpairedSurrogate = /\p{Cs}/u;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 length without encoding: texts of data are mostly ASCII, which a native scan finds. */
export function utf8Length(text: string): number {
  if (!nonAscii.test(text)) return text.length;
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    // Two bytes below U+0800; a surrogate pair is four bytes for two code units; the rest three.
    bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** The texts' encoding and bytes: UTF-8 unless a code unit is an unpaired surrogate. */
function textEncoding(text: string): { encoding: number; bytes: number } {
  if (!nonAscii.test(text)) return { encoding: utf8Texts, bytes: text.length };
  if (unpairedSurrogate.test(text)) return { encoding: utf16Texts, bytes: 2 * text.length };
  return { encoding: utf8Texts, bytes: utf8Length(text) };
}

function writeUtf16(view: DataView, at: number, text: string): void {
  for (let index = 0; index < text.length; index++) view.setUint16(at + 2 * index, text.charCodeAt(index), true);
}

/** The message holding `groups`, not journaled. */
export function writeMessageBytes(groups: readonly MessageGroup[]): Uint8Array {
  const texts: string[] = [];
  let rows = 0;
  for (const [metric, data] of groups) {
    texts.push(metric);
    rows += data.length;
  }
  const resourceOfRow = new Uint32Array(rows);
  const resourceIndex = new Map<string, number>();
  const resources: string[] = [];
  let row = 0;
  for (const [, data] of groups) {
    for (const { id, resourceId } of data) {
      texts.push(id);
      let index = resourceIndex.get(resourceId);
      if (index === undefined) {
        index = resources.length;
        resources.push(resourceId);
        resourceIndex.set(resourceId, index);
      }
      resourceOfRow[row++] = index;
    }
  }
  for (const resourceId of resources) texts.push(resourceId);
  const text = texts.join("");
  const { encoding, bytes: textBytes } = textEncoding(text);
  const textAt = headerBytes + 16 * rows + 4 * (groups.length + rows + texts.length);
  const message = new Uint8Array(textAt + textBytes);
  const view = new DataView(message.buffer);
  for (const [index, count] of [layoutVersion, groups.length, rows, resources.length, encoding, textBytes].entries()) {
    view.setUint32(4 * index, count, true);
  }
  let at = headerBytes;
  for (const [, data] of groups) {
    for (const { timestamp, value } of data) {
      view.setFloat64(at, timestamp, true);
      view.setFloat64(at + 8 * rows, value, true);
      at += 8;
    }
  }
  at += 8 * rows;
  for (const [, data] of groups) {
    view.setUint32(at, data.length, true);
    at += 4;
  }
  for (const index of resourceOfRow) {
    view.setUint32(at, index, true);
    at += 4;
  }
  for (const { length } of texts) {
    view.setUint32(at, length, true);
    at += 4;
  }
  if (encoding === utf8Texts) utf8Encoder.encodeInto(text, message.subarray(textAt));
  else writeUtf16(view, textAt, text);
  return message;
}

/** The same message with its journal reference. */
export function withJournalReference(message: Uint8Array, reference: JournalReference): Uint8Array {
  const journal = utf8Encoder.encode(JSON.stringify(reference));
  const referenced = new Uint8Array(message.length + journal.length);
  referenced.set(message);
  referenced.set(journal, message.length);
  new DataView(referenced.buffer).setUint32(journalLengthAt, journal.length, true);
  return referenced;
}

/** A value as rows carry it: a non-finite one as its xsd:double lexical form. */
export function rowValue(value: number): DatumRow[2] {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "INF" : "-INF";
}

class MalformedMessageError extends Error {
  constructor(problem: string) {
    super(`malformed intake message: ${problem}`);
  }
}

function utf16Text(view: DataView, at: number, bytes: number): string {
  const units = new Uint16Array(bytes / 2);
  for (let index = 0; index < units.length; index++) units[index] = view.getUint16(at + 2 * index, true);
  let text = "";
  // In chunks: fromCharCode takes its code units as arguments, and their number is bounded.
  for (let start = 0; start < units.length; start += 8_192) {
    text += String.fromCharCode(...units.subarray(start, start + 8_192));
  }
  return text;
}

/** Reads a message's bytes, checking that every count and length agrees with the others. */
function readMessageBytes(bytes: Uint8Array): IntakeMessage {
  if (bytes.length < headerBytes) throw new MalformedMessageError(`${bytes.length} bytes, shorter than its header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [version, groups, rows, resources, encoding, textBytes, journalBytes] = Array.from({ length: 7 }, (_, index) =>
    view.getUint32(4 * index, true),
  ) as [number, number, number, number, number, number, number];
  if (version !== layoutVersion) throw new MalformedMessageError(`layout version ${version}, not ${layoutVersion}`);
  const textCount = groups + rows + resources;
  const textAt = headerBytes + 16 * rows + 4 * (groups + rows + textCount);
  if (textAt + textBytes + journalBytes !== bytes.length || (encoding !== utf8Texts && encoding !== utf16Texts)) {
    throw new MalformedMessageError(`its header does not describe its ${bytes.length} bytes`);
  }
  const textView = bytes.subarray(textAt, textAt + textBytes);
  const text = encoding === utf8Texts ? utf8Decoder.decode(textView) : utf16Text(view, textAt, textBytes);
  let lengthAt = headerBytes + 16 * rows + 4 * (groups + rows);
  let textPosition = 0;
  const nextText = () => {
    const length = view.getUint32(lengthAt, true);
    lengthAt += 4;
    textPosition += length;
    if (textPosition > text.length) throw new MalformedMessageError("its texts are shorter than their lengths");
    return text.slice(textPosition - length, textPosition);
  };
  const metricNames = Array.from({ length: groups }, nextText);
  const ids = Array.from({ length: rows }, nextText);
  const resourceIds = Array.from({ length: resources }, nextText);
  if (textPosition !== text.length) throw new MalformedMessageError("its texts are longer than their lengths");

  const metrics: [string, DatumRow[]][] = [];
  let row = 0;
  let countAt = headerBytes + 16 * rows;
  let resourceAt = countAt + 4 * groups;
  for (const metric of metricNames) {
    const count = view.getUint32(countAt, true);
    countAt += 4;
    if (row + count > rows) throw new MalformedMessageError("its groups hold more rows than it has");
    const data: DatumRow[] = new Array(count);
    for (let index = 0; index < count; index++, row++, resourceAt += 4) {
      const resourceId = resourceIds[view.getUint32(resourceAt, true)];
      if (resourceId === undefined) throw new MalformedMessageError(`row ${row} names no resource`);
      const timestampAt = headerBytes + 8 * row;
      const value = view.getFloat64(timestampAt + 8 * rows, true);
      data[index] = [ids[row]!, view.getFloat64(timestampAt, true), rowValue(value), resourceId];
    }
    metrics.push([metric, data]);
  }
  if (row !== rows) throw new MalformedMessageError("its groups hold fewer rows than it has");
  if (journalBytes === 0) return { metrics };
  const journal = JSON.parse(utf8Decoder.decode(bytes.subarray(textAt + textBytes))) as JournalReference;
  return { metrics, journal };
}

/**
 * A message's body as the consumer gets it: these bytes, or the JSON text that intake messages
 * were before (still on a queue, or in a journal, across an upgrade).
 */
export function readIntakeMessage(body: unknown): IntakeMessage {
  if (typeof body === "string") return JSON.parse(body) as IntakeMessage;
  if (body instanceof ArrayBuffer) return readMessageBytes(new Uint8Array(body));
  if (ArrayBuffer.isView(body)) return readMessageBytes(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  throw new MalformedMessageError(`a body of type ${typeof body}, neither bytes nor text`);
}
