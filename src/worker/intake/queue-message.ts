import { packBatches } from "../../shared/bounded-batches";
import { usage } from "../ops/usage";
import type { Datum, DatumRow } from "./datum";
import { jsonRow } from "./row-json";

/*
 * Queue messages carry data as compact rows grouped by metric. Most sends fit one message, which is
 * serialized whole; a larger one is built from per-row texts, so that each message's size is known
 * while it is built. The platform takes at most 128 KB a message, and a sendBatch call at most 100
 * messages and 256 KB.
 */

/** Where a message waits in the intake journal until it is consumed: the shard, and the entry there. */
export type JournalReference = [shard: number, entry: string];

/** Accepted data, grouped by metric: [metric, rows][] (an array, so any metric name is a safe key). */
export interface IntakeMessage {
  kind: "intake";
  metrics: [string, DatumRow[]][];
  /** Set when the message was journaled (journal/): its consumer clears the entry. */
  journal?: JournalReference;
}

/** A row on its way into a message's JSON text. */
type MessageRow = ReturnType<typeof jsonRow>;

/** A message body as JSON text, with an upper bound of its size in bytes. */
export interface EncodedMessage {
  text: string;
  bytes: number;
}

const maxMessageBytes = 120_000;
/** A row's JSON besides its id, resourceId, timestamp and value: `["",,,""],`. */
const rowSyntax = '["",,,""],'.length;
const maxBatchMessages = 100;
const maxBatchBytes = 250_000;

export function toRow(datum: Datum): DatumRow {
  const { value } = datum;
  const encoded = Number.isFinite(value) ? value : Number.isNaN(value) ? "NaN" : value > 0 ? "INF" : "-INF";
  return [datum.id, datum.timestamp, encoded, datum.resourceId];
}

function fromRow(metric: string, row: DatumRow): Datum {
  const [id, timestamp, encoded, resourceId] = row;
  const value =
    typeof encoded === "number" ? encoded : encoded === "NaN" ? Number.NaN : encoded === "INF" ? Infinity : -Infinity;
  return { id, metric, timestamp, value, resourceId };
}

export function rowsToData(metric: string, rows: readonly DatumRow[]): Datum[] {
  return rows.map((row) => fromRow(metric, row));
}

const nonAscii = /\P{ASCII}/u;

/** UTF-8 length without encoding: JSON texts of data are mostly ASCII, which a native scan finds. */
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

const intakePrefix = '{"kind":"intake","metrics":[';
const intakeEnvelopeBytes = intakePrefix.length + "]}".length;

/**
 * Fewer characters than JSON gives a row's timestamp or value: the digits of a number's integer
 * part, which JSON writes in full below 1e21. Rows of long numbers (timestamps in milliseconds,
 * large counters) are then known to be past a message's size before they are serialized whole.
 */
function leastNumberLength(value: unknown): number {
  if (typeof value !== "number" || !(Math.abs(value) < 1e21)) return 1;
  const magnitude = Math.abs(value);
  let digits = 1;
  for (let power = 10; power <= magnitude; power *= 10) digits++;
  return digits;
}

/** Fewer bytes than a row's JSON can take, with the comma after it. */
const leastRowBytes = (row: MessageRow) =>
  (row[0] as string).length +
  (row[3] as string).length +
  leastNumberLength(row[1]) +
  leastNumberLength(row[2]) +
  rowSyntax;

/**
 * A metric's rows as the JSON texts of consecutive runs, each within `maxSize` bytes. Each run is
 * serialized whole, in one call rather than one per row. Its length: at most the rows whose least
 * sizes fit (so that a run tried is never far beyond the size, whatever the rows), at most as many
 * as fit at the bytes per row of the run before; shortened while its text is too large.
 * Intake validation bounds every string of a datum, so one row always fits.
 */
function rowRuns(rows: readonly MessageRow[], maxSize: number): EncodedMessage[] {
  const runs: EncodedMessage[] = [];
  let bytesPerRow = 0;
  for (let start = 0; start < rows.length; ) {
    let fitting = 0;
    for (let least = 0; start + fitting < rows.length; fitting++) {
      least += leastRowBytes(rows[start + fitting]!);
      if (least > maxSize) break;
    }
    let count = Math.max(1, bytesPerRow > 0 ? Math.min(fitting, Math.floor(maxSize / bytesPerRow)) : fitting);
    for (let tries = 1; ; tries++) {
      const text = JSON.stringify(rows.slice(start, start + count));
      const bytes = utf8Length(text);
      if (bytes <= maxSize || count === 1) {
        runs.push({ text, bytes });
        bytesPerRow = bytes / count;
        start += count;
        break;
      }
      if (tries === 1) {
        // Shortened in proportion: exact for rows of one size, as most runs' rows are.
        count = Math.max(1, Math.floor((count * maxSize) / bytes));
      } else {
        // Rows off the end whose least sizes cover the excess: their texts are at least that long,
        // so the shorter run fits, and no run is serialized more than three times.
        for (let removed = 0; count > 1 && removed < bytes - maxSize; )
          removed += leastRowBytes(rows[start + --count]!);
      }
    }
  }
  return runs;
}

/**
 * Packs rows into intake messages of at most `maxMessageBytes`: each metric's rows into runs that
 * fit a message, then the runs into as few messages as they fit.
 */
function packIntakeMessages(rowsByMetric: ReadonlyMap<string, MessageRow[]>): EncodedMessage[] {
  const groups: EncodedMessage[] = [];
  for (const [metric, rows] of rowsByMetric) {
    const metricJson = JSON.stringify(metric);
    // `[metric,rows],`: the comma separates the group from the next.
    const groupOverhead = utf8Length(metricJson) + "[,],".length;
    const maxSize = maxMessageBytes - intakeEnvelopeBytes - groupOverhead;
    for (const run of rowRuns(rows, maxSize)) {
      groups.push({ text: `[${metricJson},${run.text}]`, bytes: run.bytes + groupOverhead });
    }
  }
  const maxSize = maxMessageBytes - intakeEnvelopeBytes;
  return packBatches(groups, { maxSize, sizeOf: (group) => group.bytes }).map(({ items, size }) => ({
    text: `${intakePrefix}${items.map((group) => group.text).join(",")}]}`,
    bytes: size + intakeEnvelopeBytes,
  }));
}

/** Accepted data as intake messages: one when they fit, which is serialized whole; else packed row by row. */
export function encodeIntakeMessages(data: readonly Datum[]): EncodedMessage[] {
  if (data.length === 0) return [];
  const rowsByMetric = new Map<string, MessageRow[]>();
  // Fewer bytes than the rows' JSON can take: past the message's size, the message is packed row by
  // row at once, not serialized whole first only to be found too large.
  let leastBytes = 0;
  for (const datum of data) {
    const row = jsonRow(toRow(datum));
    // Not getOrCreate: its factory would be a function made per datum.
    const rows = rowsByMetric.get(datum.metric);
    if (rows === undefined) rowsByMetric.set(datum.metric, [row]);
    else rows.push(row);
    leastBytes += leastRowBytes(row);
  }
  if (leastBytes > maxMessageBytes) return packIntakeMessages(rowsByMetric);
  const message = { kind: "intake", metrics: [...rowsByMetric] };
  const text = JSON.stringify(message);
  const bytes = utf8Length(text);
  return bytes <= maxMessageBytes ? [{ text, bytes }] : packIntakeMessages(rowsByMetric);
}

/**
 * The message with its journal reference, written into its text rather than encoded again: the
 * reference is ASCII, and a message keeps room below the platform's limit for it.
 */
export function withJournalReference(message: EncodedMessage, reference: JournalReference): EncodedMessage {
  const field = `"journal":${JSON.stringify(reference)},`;
  return { text: `{${field}${message.text.slice(1)}`, bytes: message.bytes + field.length };
}

/** Sends messages with as few sendBatch calls as the platform's per-call limits allow. */
export async function sendMessages(queue: Queue, messages: readonly EncodedMessage[]): Promise<number> {
  const calls = packBatches(messages, {
    maxItems: maxBatchMessages,
    maxSize: maxBatchBytes,
    sizeOf: (message) => message.bytes,
  }).map(({ items }) => {
    const [only] = items;
    // One message (every small request) goes by send(), which costs less than a sendBatch.
    return items.length === 1 && only
      ? queue.send(only.text, { contentType: "text" })
      : queue.sendBatch(items.map(({ text }) => ({ body: text, contentType: "text" })));
  });
  await Promise.all(calls);
  usage.queueMessagesWritten += messages.length;
  return calls.length;
}
