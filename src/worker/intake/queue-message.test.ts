import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { usage } from "../common/usage";
import { type Datum, type LineField, seriesLabels } from "../vocabulary/datum";
import { encodeIntakeMessages, rowsToData, sendMessages, toRow } from "./queue-message";
import { headerBytes, readIntakeMessage } from "./queue-message-bytes";
import { datum } from "./testing/test-datum";

/** The most bytes the encoder puts in one message, under the platform's 128 KB. */
const maxMessageBytes = 120_000;

/** Data of one metric whose ids are `dNNNN`: 29 bytes a datum, and the resource id once. */
function sameSizeData(count: number, metric: string, resourceId: string): Datum[] {
  return Array.from({ length: count }, (_, index) =>
    datum(`d${String(index).padStart(4, "0")}`, metric, 1, resourceId),
  );
}

function decodeAll(messages: Uint8Array[]): Datum[] {
  return messages.flatMap((message) =>
    readIntakeMessage(message).metrics.flatMap(([metric, rows]) => rowsToData(metric, rows)),
  );
}

/** [metric, number of data] of each group of each message. */
function layout(messages: Uint8Array[]): [string, number][][] {
  return messages.map((message) => readIntakeMessage(message).metrics.map(([metric, rows]) => [metric, rows.length]));
}

function expectSizesBounded(messages: Uint8Array[]): void {
  for (const message of messages) expect(message.length).toBeLessThanOrEqual(maxMessageBytes);
}

/** Data of one metric that fit a message: the header, the group, the resource, then 29 bytes each. */
const sameSizeFitting = (metric: string, resourceId: string) =>
  Math.floor((maxMessageBytes - headerBytes - (8 + metric.length) - (4 + resourceId.length)) / 29);

describe("encodeIntakeMessages", () => {
  it("groups the data by metric in one message", () => {
    const data = [
      datum("d1", "cpu", 0.5, "vm1", 1000),
      datum("d2", "mem", 7, "vm1", 2000),
      datum("d3", "cpu", -2.25, "vm2", 3000),
    ];
    const messages = encodeIntakeMessages(data);
    expect(layout(messages)).toEqual([
      [
        ["cpu", 2],
        ["mem", 1],
      ],
    ]);
    expect(decodeAll(messages)).toEqual([data[0], data[2], data[1]]);
  });

  it("carries NaN, the infinities and negative zero", () => {
    const data = [datum("n", "odd", Number.NaN), datum("p", "odd", Infinity), datum("m", "odd", -Infinity)];
    const [message, ...rest] = encodeIntakeMessages([...data, datum("z", "odd", -0)]);
    expect(rest).toEqual([]);
    const decoded = decodeAll([message!]);
    expect(decoded.slice(0, 3)).toEqual(data);
    expect(Object.is(decoded[3]!.value, -0)).toBe(true);
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

  it("splits a large request into messages filled to the limit", () => {
    const fitting = sameSizeFitting("big", "r".repeat(81));
    const data = sameSizeData(2 * fitting + 126, "big", "r".repeat(81));
    const messages = encodeIntakeMessages(data);
    expect(layout(messages)).toEqual([[["big", fitting]], [["big", fitting]], [["big", 126]]]);
    expect(messages[0]!.length).toBeGreaterThan(maxMessageBytes - 29);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });

  it("lets the tail of a split metric share its message with the next metric", () => {
    const fitting = sameSizeFitting("big", "r".repeat(81));
    const data = [...sameSizeData(fitting + 313, "big", "r".repeat(81)), ...sameSizeData(10, "small", "vm1")];
    const messages = encodeIntakeMessages(data);
    expect(layout(messages)).toEqual([
      [["big", fitting]],
      [
        ["big", 313],
        ["small", 10],
      ],
    ]);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });

  it("packs data beyond ASCII again, at their bound, when their bytes outgrow a message", () => {
    const data = sameSizeData(6_000, "température", "€".repeat(100));
    const messages = encodeIntakeMessages(data);
    expect(messages.length).toBeGreaterThan(1);
    expect(decodeAll(messages)).toEqual(data);
    expectSizesBounded(messages);
  });

  describe("labels", () => {
    const usage: LineField = ["cpu", "usage", "float"];
    /** A line-protocol datum of host `host`: its own set (pairs of about 300 characters), one line for all. */
    const lineDatum = (index: number, host: number) =>
      datum(
        `d${String(index).padStart(5, "0")}`,
        "cpu.usage",
        index,
        `h${host}`,
        1000,
        seriesLabels([["host", `h${host}`.padEnd(300, "x")]], usage),
      );

    it("carries each datum's labels, and none for data without", () => {
      const labelled = seriesLabels([["job", "node"]], undefined, "job");
      const data = [datum("a", "m", 1, "vm1", 1000, labelled), datum("b", "m")];
      expect(decodeAll(encodeIntakeMessages(data))).toEqual(data);
      expect(readIntakeMessage(encodeIntakeMessages(data)[0]!).metrics[0]![1]).toEqual(data.map(toRow));
    });

    it("counts the label sets into a message's bytes, each pair list once", () => {
      // 400 hosts of about 330 bytes of labels, each with 50 data: the labels alone do not fit one message.
      const data = Array.from({ length: 20_000 }, (_, index) => lineDatum(index, index % 400));
      const messages = encodeIntakeMessages(data);
      expectSizesBounded(messages);
      expect(messages[0]!.length).toBeGreaterThan(maxMessageBytes - 400);
      expect(decodeAll(messages)).toEqual(data);
    });

    it("packs the data in the order they came, so that a series' data share a message and its labels are tabled once", () => {
      const fields = Array.from({ length: 10 }, (_, field) => `usage_${field}`);
      const data = Array.from({ length: 3_000 }, (_, series) => {
        const pairs = [["host", `h${series}`]] as const;
        return fields.map((field, index) =>
          datum(
            `${series}-${index}`,
            `cpu.${field}`,
            index,
            `h${series}`,
            1000,
            seriesLabels(pairs, ["cpu", field, "float"]),
          ),
        );
      }).flat();
      const messages = encodeIntakeMessages(data);
      expectSizesBounded(messages);
      const resources = messages.map((message) => {
        const rows = readIntakeMessage(message).metrics.flatMap(([, metricRows]) => metricRows);
        return new Set(rows.map(([, , , resourceId]) => resourceId));
      });
      // Every series in one message, but one where a message ends.
      expect(resources.reduce((total, each) => total + each.size, 0)).toBeLessThanOrEqual(3_000 + messages.length - 1);
      expect(layout(messages)[0]!.map(([metric]) => metric)).toEqual(fields.map((field) => `cpu.${field}`));
      const decoded = decodeAll(messages);
      const idsOf = (each: Datum[], metric: string) =>
        each.filter((datum) => datum.metric === metric).map(({ id }) => id);
      for (const field of fields) expect(idsOf(decoded, `cpu.${field}`)).toEqual(idsOf(data, `cpu.${field}`));
      expect(decoded[0]).toEqual(data[0]);
    });

    it("gives every row a label-set index once one row has labels, those before it too", () => {
      const plain = sameSizeData(sameSizeFitting("m", "vm1"), "m", "vm1");
      const messages = encodeIntakeMessages([...plain, datum("z", "m", 1, "vm1", 1000, seriesLabels([]))]);
      expectSizesBounded(messages);
      expect(messages.length).toBe(2);
      expect(decodeAll(messages)).toHaveLength(plain.length + 1);
    });
  });

  it("splits data of any sizes into messages within the limit that give the data back in order", () => {
    const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });
    const labels = fc
      .tuple(
        fc.uniqueArray(fc.tuple(text(6), fc.oneof(text(6), text(600))), { selector: ([name]) => name, maxLength: 3 }),
        fc.option(fc.tuple(text(6), text(6), fc.constant("float" as const))),
      )
      .map(([pairs, line]) => seriesLabels(pairs, line ?? undefined));
    const data = fc
      .tuple(
        fc.array(labels, { minLength: 1, maxLength: 30 }),
        fc.array(
          fc.record({
            id: text(40),
            metric: fc.constantFrom("a", "b", "ü"),
            timestamp: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
            value: fc.double(),
            resourceId: fc.oneof(text(8), text(2_000)),
            labels: fc.option(fc.nat()),
          }),
          { maxLength: 400 },
        ),
      )
      .map(([sets, rows]) =>
        rows.map(
          ({ labels: set, ...row }): Datum => (set === null ? row : { ...row, labels: sets[set % sets.length]! }),
        ),
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

/** A message of `bytes` bytes, its first byte `mark`. */
const message = (mark: number, bytes = 1) => new Uint8Array(bytes).fill(mark, 0, 1);

describe("sendMessages", () => {
  it("sends nothing for no messages", async () => {
    const { queue, calls } = recordingQueue();
    expect(await sendMessages(queue, [])).toBe(0);
    expect(calls).toEqual([]);
  });

  it("sends a single message with send, as bytes", async () => {
    const { queue, calls } = recordingQueue();
    expect(await sendMessages(queue, [message(1)])).toBe(1);
    expect(calls).toEqual([{ method: "send", messages: [{ body: message(1), contentType: "bytes" }] }]);
  });

  it("sends several messages with one sendBatch, as bytes", async () => {
    const { queue, calls } = recordingQueue();
    const written = usage.queueMessagesWritten;
    expect(await sendMessages(queue, [message(1), message(2), message(3)])).toBe(1);
    expect(calls).toEqual([
      {
        method: "sendBatch",
        messages: [
          { body: message(1), contentType: "bytes" },
          { body: message(2), contentType: "bytes" },
          { body: message(3), contentType: "bytes" },
        ],
      },
    ]);
    expect(usage.queueMessagesWritten - written).toBe(3);
  });

  it("puts at most 100 messages in one sendBatch", async () => {
    const { queue, calls } = recordingQueue();
    const messages = Array.from({ length: 250 }, (_, index) => message(index));
    expect(await sendMessages(queue, messages)).toBe(3);
    expect(calls.map((call) => [call.method, call.messages.length])).toEqual([
      ["sendBatch", 100],
      ["sendBatch", 100],
      ["sendBatch", 50],
    ]);
    expect(calls.flatMap((call) => call.messages.map((sent) => sent.body))).toEqual(messages);
  });

  it("keeps each sendBatch within 250,000 bytes, and sends a lone remainder with send", async () => {
    const { queue, calls } = recordingQueue();
    const messages = [
      message(1, 100_000),
      message(2, 100_000),
      message(3, 100_000),
      message(4, 100_000),
      message(5, 60_000),
    ];
    expect(await sendMessages(queue, messages)).toBe(3);
    expect(calls.map((call) => [call.method, call.messages.map((sent) => sent.body)])).toEqual([
      ["sendBatch", messages.slice(0, 2)],
      ["sendBatch", messages.slice(2, 4)],
      ["send", messages.slice(4)],
    ]);
  });
});
