import { packBatches } from "../../shared/bounded-batches";
import { usage } from "../common/usage";
import type { Datum, DatumRow } from "../vocabulary/datum";
import { rowValue } from "../vocabulary/row-value";
import { MessageBuilder } from "./queue-message-bytes";

/*
 * Queue messages carry data grouped by metric, in the layout of queue-message-bytes.ts. The platform
 * takes at most 128 KB a message, and a sendBatch call at most 100 messages and 256 KB.
 */

/** Below the platform's limit, with room to spare. */
const maxMessageBytes = 120_000;
const maxBatchMessages = 100;
const maxBatchBytes = 250_000;

export function toRow(datum: Datum): DatumRow {
  const { id, timestamp, value, resourceId, labels } = datum;
  return labels === undefined
    ? [id, timestamp, rowValue(value), resourceId]
    : [id, timestamp, rowValue(value), resourceId, labels];
}

function fromRow(metric: string, row: DatumRow): Datum {
  const [id, timestamp, encoded, resourceId, labels] = row;
  const value =
    typeof encoded === "number" ? encoded : encoded === "NaN" ? Number.NaN : encoded === "INF" ? Infinity : -Infinity;
  return labels === undefined
    ? { id, metric, timestamp, value, resourceId }
    : { id, metric, timestamp, value, resourceId, labels };
}

export function rowsToData(metric: string, rows: readonly DatumRow[]): Datum[] {
  return rows.map((row) => fromRow(metric, row));
}

/**
 * The data, packed in the order they came into as few messages as fit, each given as soon as it is
 * full, its texts counted at `textUnitBytes` per UTF-16 code unit (see MessageBuilder). Intake
 * validation bounds every text of a datum, so one datum always fits. In the order they came, the
 * data of a series (an agent sends a series' data together) share a message, and so its
 * resourceId and labels, which each message tables once.
 */
function* packData(data: readonly Datum[], textUnitBytes: number, via: readonly string[]): Generator<MessageBuilder> {
  let message = new MessageBuilder(textUnitBytes, maxMessageBytes, via);
  // An index loop: in a generator, for-of makes an iterator result per datum.
  for (let index = 0; index < data.length; index++) {
    const datum = data[index]!;
    if (message.add(datum)) continue;
    yield message;
    message = new MessageBuilder(textUnitBytes, maxMessageBytes, via);
    message.add(datum);
  }
  if (message.rows > 0) yield message;
}

/**
 * Accepted data as intake messages, each within the platform's size, grouped by metric, each naming
 * the upstream services `via` the data came through (none for data made here).
 */
export function encodeIntakeMessages(data: readonly Datum[], via: readonly string[] = []): Uint8Array[] {
  const messages: Uint8Array[] = [];
  for (const packed of packData(data, 1, via)) {
    const message = packed.bytes();
    if (message.length <= maxMessageBytes) messages.push(message);
    // Texts beyond ASCII took more than a byte per code unit: packed again at their bound.
    else for (const smaller of packData(packed.orderedData(), 3, via)) messages.push(smaller.bytes());
  }
  return messages;
}

const bytesOf = (message: Uint8Array) => message.length;

const sendRequest = (message: Uint8Array): MessageSendRequest => ({ body: message, contentType: "bytes" });

/** Sends messages with as few sendBatch calls as the platform's per-call limits allow. */
export async function sendMessages(queue: Queue, messages: readonly Uint8Array[]): Promise<number> {
  const calls = packBatches(messages, { maxItems: maxBatchMessages, maxSize: maxBatchBytes, sizeOf: bytesOf }).map(
    ({ items }) => {
      const [only] = items;
      // One message (every small request) goes by send(), which costs less than a sendBatch.
      if (items.length === 1 && only !== undefined) return queue.send(only, { contentType: "bytes" });
      return queue.sendBatch(items.map(sendRequest));
    },
  );
  await Promise.all(calls);
  usage.queueMessagesWritten += messages.length;
  return calls.length;
}
