import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { usage } from "../ops/usage";
import type { Datum } from "./datum";
import {
  type EncodedMessage,
  encodeIntakeMessages,
  type IntakeMessage,
  rowsToData,
  sendMessages,
  toRow,
  utf8Length,
  withJournalReference,
} from "./queue-message";

/** The most bytes the encoder puts in one message, under the platform's 128 KB. */
const maxMessageBytes = 120_000;

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

function datum(id: string, metric: string, value = 1, resourceId = "vm1", timestamp = 1000): Datum {
  return { id, metric, timestamp, value, resourceId };
}

/** Data of one metric whose rows are `["dNNNN",1000,1,"<resource>"]`: 19 bytes of JSON around the resource id. */
function sameSizeData(count: number, metric: string, resourceId: string): Datum[] {
  return Array.from({ length: count }, (_, index) =>
    datum(`d${String(index).padStart(4, "0")}`, metric, 1, resourceId),
  );
}

function decode(message: EncodedMessage): IntakeMessage {
  return JSON.parse(message.text) as IntakeMessage;
}

function decodeAll(messages: EncodedMessage[]): Datum[] {
  return messages.flatMap((message) => decode(message).metrics.flatMap(([metric, rows]) => rowsToData(metric, rows)));
}

/** [metric, number of data] of each group of each message. */
function layout(messages: EncodedMessage[]): [string, number][][] {
  return messages.map((message) => decode(message).metrics.map(([metric, rows]) => [metric, rows.length]));
}

function expectSizesBounded(messages: EncodedMessage[]): void {
  for (const { text, bytes } of messages) {
    expect(bytes).toBeGreaterThanOrEqual(byteLength(text));
    expect(bytes).toBeLessThanOrEqual(maxMessageBytes);
  }
}

describe("utf8Length", () => {
  it("counts one to four bytes per character as UTF-8 does", () => {
    const samples = [
      "",
      "abc",
      "é",
      "\u07ff",
      "\u0800",
      "€",
      "\ud7ff",
      "\ue000",
      "\uffff",
      "𝄞",
      "aé€𝄞",
      "température 😀",
    ];
    expect(samples.map(utf8Length)).toEqual([0, 3, 2, 2, 3, 3, 3, 3, 3, 4, 10, 17]);
    expect(samples.map(utf8Length)).toEqual(samples.map(byteLength));
  });
});

describe("encodeIntakeMessages", () => {
  it("groups the data by metric in one compact message", () => {
    const data = [
      datum("d1", "cpu", 0.5, "vm1", 1000),
      datum("d2", "mem", 7, "vm1", 2000),
      datum("d3", "cpu", -2.25, "vm2", 3000),
    ];
    const messages = encodeIntakeMessages(data);
    expect(messages.map((message) => message.text)).toEqual([
      '{"kind":"intake","metrics":[["cpu",[["d1",1000,0.5,"vm1"],["d3",3000,-2.25,"vm2"]]],["mem",[["d2",2000,7,"vm1"]]]]}',
    ]);
    expect(decodeAll(messages)).toEqual([data[0], data[2], data[1]]);
    expectSizesBounded(messages);
  });

  it("carries NaN and the infinities as their xsd:double forms and decodes them back", () => {
    const data = [datum("n", "odd", Number.NaN), datum("p", "odd", Infinity), datum("m", "odd", -Infinity)];
    const [message, ...rest] = encodeIntakeMessages(data);
    expect(rest).toEqual([]);
    expect(message!.text).toBe(
      '{"kind":"intake","metrics":[["odd",[["n",1000,"NaN","vm1"],["p",1000,"INF","vm1"],["m",1000,"-INF","vm1"]]]]}',
    );
    expect(decodeAll([message!])).toEqual(data);
  });

  it("keeps the sign of negative zero, which JSON.stringify drops", () => {
    const [message] = encodeIntakeMessages([datum("z", "zero", -0), datum("p", "zero", 0)]);
    expect(message!.text).toBe('{"kind":"intake","metrics":[["zero",[["z",1000,-0,"vm1"],["p",1000,0,"vm1"]]]]}');
    const [negative, positive] = decodeAll([message!]);
    expect(Object.is(negative!.value, -0)).toBe(true);
    expect(Object.is(positive!.value, 0)).toBe(true);
  });

  it("produces no message for no data", () => {
    expect(encodeIntakeMessages([])).toEqual([]);
  });

  it("keeps many metrics apart, each in the order its data arrived", () => {
    const metrics = Array.from({ length: 300 }, (_, index) => `metric.${index}`);
    const data = [
      ...metrics.map((metric) => datum("first", metric)),
      ...metrics.map((metric) => datum("second", metric)),
    ];
    const messages = encodeIntakeMessages(data);
    expect(layout(messages)).toEqual([metrics.map((metric) => [metric, 2])]);
    expect(decodeAll(messages)).toEqual(metrics.flatMap((metric) => [datum("first", metric), datum("second", metric)]));
  });

  it("splits a large request into messages that each stay within the limit", () => {
    const data = sameSizeData(2500, "big", "r".repeat(81));
    expect(JSON.stringify(toRow(data[0]!))).toHaveLength(100);
    const messages = encodeIntakeMessages(data);
    expect(layout(messages)).toEqual([[["big", 1187]], [["big", 1187]], [["big", 126]]]);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });

  it("lets the tail of a split metric share its message with the next metric", () => {
    const data = [...sameSizeData(1500, "big", "r".repeat(81)), ...sameSizeData(10, "small", "vm1")];
    const messages = encodeIntakeMessages(data);
    expect(layout(messages)).toEqual([
      [["big", 1187]],
      [
        ["big", 313],
        ["small", 10],
      ],
    ]);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });

  it("counts multi-byte characters in bytes, not in UTF-16 code units", () => {
    const data = sameSizeData(1000, "température", "€".repeat(100));
    const messages = encodeIntakeMessages(data);
    expect(layout(messages).map((groups) => groups.map(([, count]) => count))).toEqual([[374], [374], [252]]);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });

  it("splits data of any sizes into messages within the limit that give the data back in order", () => {
    const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });
    const data = fc.array(
      fc.record({
        id: text(40),
        metric: fc.constantFrom("a", "b", "ü"),
        timestamp: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        value: fc.double(),
        resourceId: fc.oneof(text(8), text(2_000)),
      }),
      { maxLength: 400 },
    );
    fc.assert(
      fc.property(data, (generated) => {
        const messages = encodeIntakeMessages(generated);
        expectSizesBounded(messages);
        const byMetric = (metric: string) => (each: Datum) => each.metric === metric;
        for (const metric of ["a", "b", "ü"]) {
          expect(decodeAll(messages).filter(byMetric(metric))).toEqual(generated.filter(byMetric(metric)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("serializes little beyond what the messages hold, however the rows' sizes alternate", () => {
    const block = (count: number, resourceId: string, from: number) =>
      Array.from({ length: count }, (_, index) => datum(`d${from + index}`, "m", 1, resourceId));
    const data = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0 ? block(2_000, "r", index * 2_000) : block(100, "r".repeat(1_000), index * 2_000),
    ).flat();
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      const messages = encodeIntakeMessages(data);
      const serialized = stringify.mock.results.reduce((sum, { value }) => sum + String(value).length, 0);
      const held = messages.reduce((sum, { text }) => sum + text.length, 0);
      // Each run is serialized at most three times, each try not far beyond a message.
      expect(serialized).toBeLessThan(4 * held);
      expect(decodeAll(messages)).toEqual(data);
    } finally {
      stringify.mockRestore();
    }
  });

  it("reports an upper bound of each message's UTF-8 size, also for escaped and unpaired characters", () => {
    const data = [datum('quote"back\\slash', "ünïcode 😀", 1, "\ud800 lone"), datum("tab\t", "ascii", 2, "€")];
    const messages = encodeIntakeMessages(data);
    expect(messages).toHaveLength(1);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });
});

function recordingQueue() {
  const calls: { method: "send" | "sendBatch"; messages: MessageSendRequest[] }[] = [];
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  const queue = {
    async send(body: unknown, options?: QueueSendOptions) {
      calls.push({ method: "send", messages: [{ body, ...options }] });
      return { metadata };
    },
    async sendBatch(messages: Iterable<MessageSendRequest>) {
      calls.push({ method: "sendBatch", messages: [...messages] });
      return { metadata };
    },
    metrics: async () => metadata.metrics,
  } satisfies Queue;
  return { queue, calls };
}

const message = (text: string, bytes = text.length): EncodedMessage => ({ text, bytes });

describe("withJournalReference", () => {
  it("adds the reference to the message, keeping its data and an exact size bound", () => {
    const data = [datum("a", "cpu", 0.5, "vm-é"), datum("b", "mem")];
    const [encoded] = encodeIntakeMessages(data);
    const referenced = withJournalReference(encoded!, [7, "send-1/0"]);
    expect(decode(referenced).journal).toEqual([7, "send-1/0"]);
    expect(decodeAll([referenced])).toEqual(data);
    expect(referenced.bytes - encoded!.bytes).toBe(byteLength(referenced.text) - byteLength(encoded!.text));
    expectSizesBounded([referenced]);
  });
});

describe("sendMessages", () => {
  it("sends nothing for no messages", async () => {
    const { queue, calls } = recordingQueue();
    expect(await sendMessages(queue, [])).toBe(0);
    expect(calls).toEqual([]);
  });

  it("sends a single message with send, as text", async () => {
    const { queue, calls } = recordingQueue();
    expect(await sendMessages(queue, [message("only")])).toBe(1);
    expect(calls).toEqual([{ method: "send", messages: [{ body: "only", contentType: "text" }] }]);
  });

  it("sends several messages with one sendBatch, each as text", async () => {
    const { queue, calls } = recordingQueue();
    const written = usage.queueMessagesWritten;
    expect(await sendMessages(queue, [message("a"), message("b"), message("c")])).toBe(1);
    expect(calls).toEqual([
      {
        method: "sendBatch",
        messages: [
          { body: "a", contentType: "text" },
          { body: "b", contentType: "text" },
          { body: "c", contentType: "text" },
        ],
      },
    ]);
    expect(usage.queueMessagesWritten - written).toBe(3);
  });

  it("puts at most 100 messages in one sendBatch", async () => {
    const { queue, calls } = recordingQueue();
    const messages = Array.from({ length: 250 }, (_, index) => message(`m${index}`));
    expect(await sendMessages(queue, messages)).toBe(3);
    expect(calls.map((call) => [call.method, call.messages.length])).toEqual([
      ["sendBatch", 100],
      ["sendBatch", 100],
      ["sendBatch", 50],
    ]);
    expect(calls.flatMap((call) => call.messages.map((sent) => sent.body))).toEqual(messages.map((sent) => sent.text));
  });

  it("keeps each sendBatch within 250,000 bytes, and sends a lone remainder with send", async () => {
    const { queue, calls } = recordingQueue();
    const messages = ["a", "b", "c", "d", "e"].map((text) => message(text, 100_000));
    expect(await sendMessages(queue, messages)).toBe(3);
    expect(calls.map((call) => [call.method, call.messages.map((sent) => sent.body)])).toEqual([
      ["sendBatch", ["a", "b"]],
      ["sendBatch", ["c", "d"]],
      ["send", ["e"]],
    ]);
  });
});
