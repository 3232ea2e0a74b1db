import type { Datum } from "../intake/datum";
import { usage } from "../ops/usage";

/*
 * Queue message bodies. Data travel as compact rows grouped by metric, and each message body is
 * built as one JSON text from per-row texts, so that its size is known while it is built without
 * serializing anything twice. Platform limits (REFERENCE.md): 128 KB a message; sendBatch at most
 * 100 messages and 256 KB.
 */

/** [datum id, timestamp ms, value, resourceId]; a non-finite value travels as its xsd:double lexical form. */
type DatumRow = [string, number, number | "INF" | "-INF" | "NaN", string];

/** Accepted data, grouped by metric: [metric, rows][] (an array, so any metric name is a safe key). */
export interface IntakeMessage {
  kind: "intake";
  metrics: [string, DatumRow[]][];
}

/**
 * Data still owed to one observer (`observerId`), or to every observer of the metric when the
 * observers could not be looked up. `webhookId` keeps a signed delivery's id stable across retries.
 */
export interface DeliveryMessage {
  kind: "delivery";
  metric: string;
  observerId?: string;
  webhookId?: string;
  /** Attempts made so far. */
  attempts: number;
  /** Why the last attempt failed. */
  lastError: string;
  rows: DatumRow[];
}

type QueueMessageBody = IntakeMessage | DeliveryMessage;

const maxMessageBytes = 120_000;
const maxBatchMessages = 100;
const maxBatchBytes = 250_000;

function toRow(datum: Datum): DatumRow {
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

/** UTF-8 length without encoding: JSON texts of data are mostly ASCII. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    // Two bytes below U+0800; a surrogate pair is four bytes for two code units; the rest three.
    bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** A message body as JSON text, with its size in bytes. */
export interface EncodedMessage {
  text: string;
  bytes: number;
  delaySeconds?: number;
}

/**
 * Packs accepted data into intake messages of at most `maxMessageBytes`, each holding as many data
 * as fit. Intake validation bounds every string of a datum, so one row always fits in a message.
 */
export function encodeIntakeMessages(data: readonly Datum[]): EncodedMessage[] {
  const byMetric = new Map<string, string[]>();
  for (const datum of data) {
    let rows = byMetric.get(datum.metric);
    if (!rows) byMetric.set(datum.metric, (rows = []));
    rows.push(JSON.stringify(toRow(datum)));
  }
  const messages: EncodedMessage[] = [];
  const prefix = '{"kind":"intake","metrics":[';
  let groups: string[] = [];
  let bytes = prefix.length + 2;
  const flush = () => {
    if (groups.length === 0) return;
    messages.push({ text: `${prefix}${groups.join(",")}]}`, bytes });
    groups = [];
    bytes = prefix.length + 2;
  };
  for (const [metric, rows] of byMetric) {
    const metricJson = JSON.stringify(metric);
    const overhead = utf8Length(metricJson) + 6;
    let current: string[] = [];
    let currentBytes = 0;
    const closeGroup = () => {
      if (current.length === 0) return;
      groups.push(`[${metricJson},[${current.join(",")}]]`);
      bytes += currentBytes + overhead;
      current = [];
      currentBytes = 0;
    };
    for (const row of rows) {
      const rowBytes = utf8Length(row) + 1;
      if (bytes + overhead + currentBytes + rowBytes > maxMessageBytes && (current.length > 0 || groups.length > 0)) {
        closeGroup();
        flush();
      }
      current.push(row);
      currentBytes += rowBytes;
    }
    closeGroup();
  }
  flush();
  return messages;
}

/** Splits undelivered data for one observer (or one metric) into delivery messages within the size limit. */
export function encodeDeliveryMessages(
  target: Omit<DeliveryMessage, "kind" | "rows">,
  data: readonly Datum[],
): EncodedMessage[] {
  const head = JSON.stringify({ kind: "delivery", ...target }).slice(0, -1);
  const headBytes = utf8Length(head) + ',"rows":[]}'.length;
  const messages: EncodedMessage[] = [];
  let rows: string[] = [];
  let bytes = headBytes;
  const flush = () => {
    if (rows.length === 0) return;
    messages.push({ text: `${head},"rows":[${rows.join(",")}]}`, bytes });
    rows = [];
    bytes = headBytes;
  };
  for (const datum of data) {
    const row = JSON.stringify(toRow(datum));
    const rowBytes = utf8Length(row) + 1;
    if (bytes + rowBytes > maxMessageBytes) flush();
    rows.push(row);
    bytes += rowBytes;
  }
  flush();
  return messages;
}

/** Sends messages with as few sendBatch calls as the platform's per-call limits allow. */
export async function sendMessages(queue: Queue, messages: readonly EncodedMessage[]): Promise<number> {
  const calls: Promise<unknown>[] = [];
  let batch: MessageSendRequest[] = [];
  let batchBytes = 0;
  const flush = () => {
    if (batch.length === 0) return;
    // One message (every small request) goes by send(): locally it costs a fraction of a sendBatch.
    const [only] = batch;
    calls.push(
      batch.length === 1 && only
        ? queue.send(only.body, { contentType: "text", delaySeconds: only.delaySeconds })
        : queue.sendBatch(batch),
    );
    batch = [];
    batchBytes = 0;
  };
  for (const message of messages) {
    if (batch.length === maxBatchMessages || batchBytes + message.bytes > maxBatchBytes) flush();
    const { text, delaySeconds } = message;
    batch.push(delaySeconds === undefined ? { body: text, contentType: "text" } : { body: text, contentType: "text", delaySeconds });
    batchBytes += message.bytes;
  }
  flush();
  await Promise.all(calls);
  usage.queueMessagesWritten += messages.length;
  return calls.length;
}

/** Message bodies are sent as JSON text (see above); the consumers read them back here. */
export function readBodies<Body extends QueueMessageBody>(batch: MessageBatch<string>): Body[] {
  return batch.messages.map((message) => JSON.parse(message.body) as Body);
}
