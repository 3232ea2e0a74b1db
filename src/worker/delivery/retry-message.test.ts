import { describe, expect, it } from "vitest";
import type { Datum } from "../intake/datum";
import { type EncodedMessage, maxMessageBytes, rowsToData } from "../intake/queue-message";
import { encodeDeliveryMessages } from "./retry-message";
import type { DeliveryMessage } from "./vocabulary";

const target = {
  metric: "cpu",
  observerId: "o1",
  webhookId: "msg_1",
  attempts: 2,
  lastError: "HTTP 503 from the observer",
};

/** Data whose rows are `["dNNNN",1000,1,"<resource>"]`. */
function data(count: number, metric: string, resourceId = "vm1"): Datum[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `d${String(index).padStart(4, "0")}`,
    metric,
    timestamp: 1000,
    value: 1,
    resourceId,
  }));
}

const decode = (message: EncodedMessage) => JSON.parse(message.text) as DeliveryMessage;

function expectSizesBounded(messages: EncodedMessage[]): void {
  for (const { text, bytes } of messages) {
    expect(bytes).toBeGreaterThanOrEqual(new TextEncoder().encode(text).length);
    expect(bytes).toBeLessThanOrEqual(maxMessageBytes);
  }
}

describe("encodeDeliveryMessages", () => {
  it("carries the observer, the webhook id, the attempts and the last error with the rows", () => {
    const owed: Datum[] = [
      { id: "d1", metric: "cpu", timestamp: 1000, value: 0.5, resourceId: "vm1" },
      { id: "d2", metric: "cpu", timestamp: 2000, value: Infinity, resourceId: "vm2" },
    ];
    const messages = encodeDeliveryMessages(target, owed);
    expect(messages.map((message) => message.text)).toEqual([
      '{"kind":"delivery","metric":"cpu","observerId":"o1","webhookId":"msg_1","attempts":2,' +
        '"lastError":"HTTP 503 from the observer","rows":[["d1",1000,0.5,"vm1"],["d2",2000,"INF","vm2"]]}',
    ]);
    const [message] = messages.map(decode);
    expect(rowsToData(message!.metric, message!.rows)).toEqual(owed);
    expectSizesBounded(messages);
  });

  it("leaves out the observer and webhook id of a metric-level message", () => {
    const [message, ...rest] = encodeDeliveryMessages(
      { metric: "cpu", attempts: 1, lastError: "observer look-up failed: boom" },
      data(1, "cpu"),
    );
    expect(rest).toEqual([]);
    expect(Object.keys(decode(message!))).toEqual(["kind", "metric", "attempts", "lastError", "rows"]);
  });

  it("produces no message when nothing is owed", () => {
    expect(encodeDeliveryMessages(target, [])).toEqual([]);
  });

  it("splits many rows into messages within the limit, each with the same observer and attempts", () => {
    const owed = data(2500, "big", "r".repeat(81));
    const head = { metric: "big", observerId: "o1", webhookId: "w", attempts: 7, lastError: "e" };
    const messages = encodeDeliveryMessages(head, owed);
    const decoded = messages.map(decode);
    expect(decoded.map((message) => message.rows.length)).toEqual([1187, 1187, 126]);
    for (const { rows, ...rest } of decoded) expect(rest).toEqual({ kind: "delivery", ...head });
    expect(decoded.flatMap((message) => rowsToData(message.metric, message.rows))).toEqual(owed);
    expectSizesBounded(messages);
  });

  it("counts multi-byte characters of the error and the rows in bytes", () => {
    const owed = data(1000, "température", "€".repeat(100));
    const messages = encodeDeliveryMessages({ ...target, metric: "température", lastError: "délai dépassé ⏱" }, owed);
    expect(messages.map((message) => decode(message).rows.length)).toEqual([374, 374, 252]);
    expect(messages.flatMap((message) => rowsToData("température", decode(message).rows))).toEqual(owed);
    expectSizesBounded(messages);
  });
});
