import { packBatches } from "../../shared/bounded-batches";
import { usage } from "../ops/usage";
import type { Datum, DatumRow } from "./datum";
import {
  groupBytes,
  headerBytes,
  type MessageGroup,
  resourceBytes,
  rowBytes,
  rowValue,
  utf8Length,
  writeMessageBytes,
} from "./queue-message-bytes";

/*
 * Queue messages carry data grouped by metric, in the layout of queue-message-bytes.ts. The platform
 * takes at most 128 KB a message, and a sendBatch call at most 100 messages and 256 KB.
 */

/**
 * A message as sent: its bytes, or the JSON text of an intake message journaled before messages
 * were bytes (journal/), sent again as it was.
 */
export type EncodedMessage = Uint8Array | string;

/** Below the platform's limit, with room for a journal reference (queue-message-bytes.ts). */
const maxMessageBytes = 120_000;
const maxBatchMessages = 100;
const maxBatchBytes = 250_000;

export function toRow(datum: Datum): DatumRow {
  return [datum.id, datum.timestamp, rowValue(datum.value), datum.resourceId];
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

/**
 * The groups of each message, packed in order into as few messages as fit, their texts counted at
 * `textUnitBytes` per UTF-16 code unit: 1 is exact for ASCII; 3 bounds UTF-8 and UTF-16 alike.
 * Intake validation bounds every text of a datum, so one datum always fits.
 */
function packGroups(groups: readonly MessageGroup[], textUnitBytes: number): MessageGroup[][] {
  const messages: MessageGroup[][] = [];
  let message: MessageGroup[] = [];
  let resources = new Set<string>();
  let bytes = headerBytes;
  const close = () => {
    messages.push(message);
    message = [];
    resources = new Set();
    bytes = headerBytes;
  };
  for (const [metric, data] of groups) {
    const metricBytes = groupBytes + textUnitBytes * metric.length;
    bytes += metricBytes;
    let start = 0;
    for (let index = 0; index < data.length; index++) {
      const { id, resourceId } = data[index]!;
      const datumBytes = rowBytes + textUnitBytes * id.length;
      const newResourceBytes = resourceBytes + textUnitBytes * resourceId.length;
      const needed = datumBytes + (resources.has(resourceId) ? 0 : newResourceBytes);
      if (bytes + needed > maxMessageBytes && (index > start || message.length > 0)) {
        if (index > start) message.push([metric, data.slice(start, index)]);
        close();
        start = index;
        bytes += metricBytes;
      }
      if (!resources.has(resourceId)) {
        resources.add(resourceId);
        bytes += newResourceBytes;
      }
      bytes += datumBytes;
    }
    message.push(start === 0 ? [metric, data] : [metric, data.slice(start)]);
  }
  if (message.length > 0) close();
  return messages;
}

/** Accepted data as intake messages, each within the platform's size. */
export function encodeIntakeMessages(data: readonly Datum[]): Uint8Array[] {
  if (data.length === 0) return [];
  const byMetric = new Map<string, Datum[]>();
  for (const datum of data) {
    // Not getOrCreate: its factory would be a function made per datum.
    const metricData = byMetric.get(datum.metric);
    if (metricData === undefined) byMetric.set(datum.metric, [datum]);
    else metricData.push(datum);
  }
  const messages: Uint8Array[] = [];
  for (const groups of packGroups([...byMetric], 1)) {
    const message = writeMessageBytes(groups);
    if (message.length <= maxMessageBytes) messages.push(message);
    // Texts beyond ASCII took more than a byte per code unit: packed again at their bound.
    else for (const smaller of packGroups(groups, 3)) messages.push(writeMessageBytes(smaller));
  }
  return messages;
}

const bytesOf = (message: EncodedMessage) => (typeof message === "string" ? utf8Length(message) : message.length);

const sendRequest = (message: EncodedMessage): MessageSendRequest =>
  typeof message === "string" ? { body: message, contentType: "text" } : { body: message, contentType: "bytes" };

/** Sends messages with as few sendBatch calls as the platform's per-call limits allow. */
export async function sendMessages(queue: Queue, messages: readonly EncodedMessage[]): Promise<number> {
  const calls = packBatches(messages, { maxItems: maxBatchMessages, maxSize: maxBatchBytes, sizeOf: bytesOf }).map(
    ({ items }) => {
      const [only] = items;
      // One message (every small request) goes by send(), which costs less than a sendBatch.
      if (items.length === 1 && only !== undefined) {
        const { body, contentType } = sendRequest(only);
        return queue.send(body, { contentType });
      }
      return queue.sendBatch(items.map(sendRequest));
    },
  );
  await Promise.all(calls);
  usage.queueMessagesWritten += messages.length;
  return calls.length;
}
