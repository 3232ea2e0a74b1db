import { packBatches } from "../../shared/bounded-batches";
import type { Datum } from "../intake/datum";
import { type EncodedMessage, maxMessageBytes, rowBytes, rowText, utf8Length } from "../intake/queue-message";
import type { DeliveryMessage } from "./vocabulary";

/** Splits undelivered data for one observer (or one metric) into delivery messages within the size limit. */
export function encodeDeliveryMessages(
  target: Omit<DeliveryMessage, "kind" | "rows">,
  data: readonly Datum[],
): EncodedMessage[] {
  const head = JSON.stringify({ kind: "delivery", ...target }).slice(0, -1);
  const headBytes = utf8Length(head) + ',"rows":[]}'.length;
  const rows = data.map(rowText);
  return packBatches(rows, { maxSize: maxMessageBytes - headBytes, sizeOf: rowBytes }).map(({ items, size }) => ({
    text: `${head},"rows":[${items.join(",")}]}`,
    bytes: size + headBytes,
  }));
}
