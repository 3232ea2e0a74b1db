import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Datum, type DatumRow, type LineField, type SeriesLabels, seriesLabels } from "../vocabulary/datum";
import { toRow } from "./queue-message";
import {
  headerBytes,
  type IntakeMessage,
  MessageBuilder,
  readIntakeMessage,
  writeMessageBytes,
} from "./queue-message-bytes";
import { datum } from "./testing/test-datum";

const header = (message: Uint8Array) =>
  Array.from({ length: headerBytes / 4 }, (_, index) => new DataView(message.buffer).getUint32(4 * index, true));

describe("writeMessageBytes and readIntakeMessage", () => {
  it("lays out the numbers as doubles and every resourceId once, and reads the rows back", () => {
    const message = writeMessageBytes([
      ["cpu", [datum("d1", "cpu", 0.5, "vm1", 1000), datum("d3", "cpu", -2.25, "vm2", 3000)]],
      ["mem", [datum("d2", "mem", 7, "vm1", 2000)]],
    ]);
    // version, groups, rows, resources, UTF-8, text bytes, no label set, pair list, pair or line, no via id
    expect(header(message)).toEqual([3, 2, 3, 2, 0, 18, 0, 0, 0, 0, 0, 0]);
    const texts = "cpumemd1d3d2vm1vm2";
    // Without labels, the rows carry no label-set index.
    expect(message.length).toBe(48 + 16 * 3 + 4 * (2 + 3 + 7) + texts.length);
    expect(new TextDecoder().decode(message.subarray(message.length - texts.length))).toBe(texts);
    expect(readIntakeMessage(message)).toEqual({
      metrics: [
        [
          "cpu",
          [
            ["d1", 1000, 0.5, "vm1"],
            ["d3", 3000, -2.25, "vm2"],
          ],
        ],
        ["mem", [["d2", 2000, 7, "vm1"]]],
      ],
    });
  });

  it("reads non-finite values as their xsd:double forms, and keeps the sign of negative zero", () => {
    const values = [Number.NaN, Infinity, -Infinity, -0, 0, Number.MIN_VALUE, -Number.MAX_VALUE];
    const message = writeMessageBytes([["odd", values.map((value, index) => datum(`v${index}`, "odd", value))]]);
    const [[, rows]] = readIntakeMessage(message).metrics as [[string, [string, number, unknown, string][]]];
    expect(rows.map(([, , value]) => value)).toEqual([
      "NaN",
      "INF",
      "-INF",
      -0,
      0,
      Number.MIN_VALUE,
      -Number.MAX_VALUE,
    ]);
    expect(Object.is(rows[3]![2], -0)).toBe(true);
  });

  it("carries unpaired surrogates in UTF-16, and a leading byte-order mark as it is", () => {
    const data = [datum("\ufeffid", "m\ud800", 1, "\udfffvm"), datum("é😀", "m\ud800", 2, "€")];
    const message = writeMessageBytes([["m\ud800", data]]);
    expect(header(message)[4]).toBe(1);
    expect(readIntakeMessage(message).metrics).toEqual([
      [
        "m\ud800",
        [
          ["\ufeffid", 1000, 1, "\udfffvm"],
          ["é😀", 1000, 2, "€"],
        ],
      ],
    ]);
    const utf8 = writeMessageBytes([["\ufeffm", [datum("\ufeffé", "\ufeffm")]]]);
    expect(header(utf8)[4]).toBe(0);
    expect(readIntakeMessage(utf8).metrics).toEqual([["\ufeffm", [["\ufeffé", 1000, 1, "vm1"]]]]);
  });

  it("reads bytes wherever they start in their buffer", () => {
    const message = writeMessageBytes([["cpu", [datum("a", "cpu")]]]);
    const shifted = new Uint8Array(message.length + 3);
    shifted.set(message, 3);
    expect(readIntakeMessage(shifted.subarray(3))).toEqual(readIntakeMessage(message));
    expect(readIntakeMessage(message.buffer)).toEqual(readIntakeMessage(message));
  });

  it("refuses bytes whose counts and lengths disagree, whatever was cut or changed", () => {
    const message = writeMessageBytes([
      ["cpu", [datum("a", "cpu", 1, "vm1"), datum("b", "cpu", 2, "vm2")]],
      ["é", [datum("c", "é")]],
    ]);
    expect(() => readIntakeMessage(42)).toThrow("malformed intake message: a body of type number");
    expect(() => readIntakeMessage("{}")).toThrow("malformed intake message: a body of type string");
    expect(() => readIntakeMessage(message.subarray(0, 20))).toThrow("shorter than its header");
    expect(() => readIntakeMessage(message.subarray(0, 40))).toThrow("shorter than its header");
    fc.assert(
      fc.property(fc.integer({ min: 32, max: message.length - 1 }), (length) => {
        expect(() => readIntakeMessage(message.slice(0, length))).toThrow(/^malformed intake message/);
      }),
    );
    const changed = (at: number, value: number) => {
      const copy = message.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return copy;
    };
    expect(() => readIntakeMessage(changed(0, 4))).toThrow("layout version 4, not 3");
    expect(() => readIntakeMessage(changed(0, 1))).toThrow("layout version 1, not 3");
    expect(() => readIntakeMessage(changed(16, 5))).toThrow("does not describe its");
    // The first group's row count, a row's resource index, the first text's length.
    const countsAt = headerBytes + 16 * 3;
    expect(() => readIntakeMessage(changed(countsAt, 4))).toThrow("more rows than it has");
    expect(() => readIntakeMessage(changed(countsAt, 1))).toThrow("fewer rows than it has");
    expect(() => readIntakeMessage(changed(countsAt + 8, 9))).toThrow("row 0 names no resource");
    expect(() => readIntakeMessage(changed(countsAt + 20, 4))).toThrow("texts are shorter than their lengths");
    expect(() => readIntakeMessage(changed(countsAt + 20, 2))).toThrow("texts are longer than their lengths");
  });

  it("names the upstream services the data came through, once, and reads them back", () => {
    const plain = writeMessageBytes([["cpu", [datum("a", "cpu")]]]);
    const message = writeMessageBytes([["cpu", [datum("a", "cpu")]]], ["edge-1", "edge-2"]);
    expect(header(message)[11]).toBe(2);
    expect(message.length).toBe(plain.length + 2 * 4 + "edge-1edge-2".length);
    expect(readIntakeMessage(message)).toEqual({
      metrics: [["cpu", [["a", 1000, 1, "vm1"]]]],
      via: ["edge-1", "edge-2"],
    });
    // No chain, no via: the message of data made here.
    expect(readIntakeMessage(plain)).not.toHaveProperty("via");
  });

  it("refuses a via id that is empty or does not fit the texts", () => {
    const message = writeMessageBytes([["cpu", [datum("a", "cpu")]]], ["e1", "e2"]);
    const lengthsAt = message.length - "cpuavm1e1e2".length - 4 * 5;
    const changed = (at: number, value: number) => {
      const copy = message.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return copy;
    };
    // The first via id's length taken by the second.
    const moved = changed(lengthsAt + 12, 0);
    new DataView(moved.buffer).setUint32(lengthsAt + 16, 4, true);
    expect(() => readIntakeMessage(moved)).toThrow("a via id is empty");
    expect(() => readIntakeMessage(changed(lengthsAt + 16, 3))).toThrow("texts are shorter than their lengths");
    expect(() => readIntakeMessage(changed(44, 3))).toThrow("does not describe its");
  });
});

/** Data of `metrics`, their texts of `text`, a few label sets shared among them. */
function dataArbitrary(text: fc.Arbitrary<string>, metric: fc.Arbitrary<string>): fc.Arbitrary<Datum[]> {
  const labels = fc
    .record({
      pairs: fc.uniqueArray(fc.tuple(text, text), { selector: ([name]) => name, maxLength: 4 }),
      line: fc.option(
        fc.tuple(text, text, fc.constantFrom("float", "integer", "unsigned", "boolean") as fc.Arbitrary<LineField[2]>),
      ),
      resourceAttribute: fc.nat(),
    })
    .map(({ pairs, line, resourceAttribute }) =>
      seriesLabels(
        pairs.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)),
        line ?? undefined,
        pairs.length > 0 && resourceAttribute % 2 === 0 ? pairs[resourceAttribute % pairs.length]![0] : undefined,
      ),
    );
  return fc
    .tuple(
      fc.array(labels, { minLength: 1, maxLength: 6 }),
      fc.array(
        fc.record({
          id: text,
          metric,
          resourceId: text,
          value: fc.double(),
          timestamp: fc.integer(),
          labelled: fc.option(fc.nat()),
        }),
        { minLength: 1, maxLength: 20 },
      ),
    )
    .map(([sets, rows]) =>
      rows.map(
        ({ labelled, ...row }): Datum => (labelled === null ? row : { ...row, labels: sets[labelled % sets.length]! }),
      ),
    );
}

describe("MessageBuilder", () => {
  const ascii = fc.string({ unit: fc.constantFrom("a", "b", ","), maxLength: 4 });
  /** Chains of ids as the intake takes them: no comma, no space. */
  const chain = fc.uniqueArray(fc.string({ unit: fc.constantFrom("e", "1", "-"), minLength: 1, maxLength: 4 }), {
    maxLength: 4,
  });

  it("counts a message's bytes exactly as it grows (ASCII), takes data while they fit, and lays out what it took", () => {
    fc.assert(
      fc.property(
        dataArbitrary(ascii, fc.constantFrom("m", "n")),
        fc.integer({ min: 48, max: 2_000 }),
        chain,
        (data, max, via) => {
          const builder = new MessageBuilder(1, max, via);
          const taken: Datum[] = [];
          for (const datum of data) {
            if (!builder.add(datum)) break;
            taken.push(datum);
          }
          expect(taken.length).toBeGreaterThan(0);
          const message = builder.bytes();
          expect(builder.size).toBe(message.length);
          if (taken.length > 1) expect(message.length).toBeLessThanOrEqual(max);
          const groups = [...Map.groupBy(taken, ({ metric }) => metric)];
          const read = readIntakeMessage(message);
          expect(read.metrics).toEqual(groups.map(([metric, each]) => [metric, each.map(toRow)]));
          expect(read.via ?? []).toEqual(via);
        },
      ),
    );
  });

  it("groups the data by metric, each metric's in the order they came", () => {
    const builder = new MessageBuilder();
    for (const [id, metric] of [
      ["1", "a"],
      ["2", "b"],
      ["3", "a"],
    ]) {
      builder.add(datum(id!, metric!));
    }
    expect(
      readIntakeMessage(builder.bytes()).metrics.map(([metric, rows]) => [metric, rows.map(([id]) => id)]),
    ).toEqual([
      ["a", ["1", "3"]],
      ["b", ["2"]],
    ]);
  });
});

describe("labels in messages", () => {
  const tags = [
    ["cpu", "cpu0"],
    ["host", "vm1"],
  ] as const;
  const usage: LineField = ["cpu", "usage_idle", "float"];
  const count: LineField = ["cpu", "count", "integer"];
  const lineUsage = seriesLabels(tags, usage);
  const lineCount = seriesLabels(tags, count);
  const otlp = seriesLabels(
    [
      ["device", "disk0"],
      ["host.name", "vm1"],
    ],
    undefined,
    "host.name",
  );
  const prometheus = seriesLabels([["job", "node"]]);
  const noPairs = seriesLabels([], ["mem", "used", "unsigned"]);

  const rowsOf = (message: IntakeMessage) => message.metrics.flatMap(([, rows]) => rows);

  it("carry each row's labels, every set once, and give rows of one set one object", () => {
    const data = [
      datum("a", "cpu.usage_idle", 90, "vm1,cpu=cpu0", 1000, lineUsage),
      datum("b", "cpu.count", 2, "vm1,cpu=cpu0", 1000, lineCount),
      datum("c", "cpu.usage_idle", 91, "vm1,cpu=cpu0", 2000, lineUsage),
      datum("d", "disk", 3, "vm1,device=disk0", 1000, otlp),
      datum("e", "up", 1, "job=node", 1000, prometheus),
      datum("f", "mem.used", 7, "-", 1000, noPairs),
      datum("g", "rdf", 8, "vm1"),
    ];
    const groups = [...Map.groupBy(data, ({ metric }) => metric)];
    const message = writeMessageBytes(groups);
    // Sets: usage, count, otlp, prometheus, noPairs; pair lists: tags, otlp, prometheus, none; lines: usage,
    // count, mem.used; texts: cpu cpu0 host vm1 usage_idle count device disk0 host.name job node mem used.
    expect(header(message).slice(6, 11)).toEqual([5, 4, 5, 3, 13]);
    const read = readIntakeMessage(message);
    expect(read).toEqual({ metrics: groups.map(([metric, each]) => [metric, each.map(toRow)]) });
    const rows = rowsOf(read);
    const [first, second, third] = [rows[0]![4], rows[1]![4], rows[2]![4]];
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(third!.pairs).toBe(first!.pairs);
    expect(rows.at(-1)).toHaveLength(4);
  });

  it("leave rows without labels as they were, also in a message with labelled rows", () => {
    const message = writeMessageBytes([
      ["m", [datum("a", "m"), datum("b", "m", 2, "vm1", 5, prometheus), datum("c", "m")]],
    ]);
    expect(rowsOf(readIntakeMessage(message)).map((row) => row.length)).toEqual([4, 5, 4]);
  });

  /** Texts of few characters (an unpaired surrogate and the empty text among them), so that sets often share parts. */
  const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "😀", "\ud800", "\udfff", ","), maxLength: 3 });
  const messageArbitrary = dataArbitrary(text, fc.constantFrom("a", "b\ud800", "é"));

  it("come back as they were sent, whatever their texts, with the chain they came by", () => {
    const chain = fc.uniqueArray(fc.uuid(), { maxLength: 3 });
    fc.assert(
      fc.property(messageArbitrary, chain, (data, via) => {
        const groups = [...Map.groupBy(data, ({ metric }) => metric)];
        const read = readIntakeMessage(writeMessageBytes(groups, via));
        expect(read.metrics).toEqual(groups.map(([metric, each]) => [metric, each.map(toRow)]));
        expect(read.via ?? []).toEqual(via);
        // Rows of one set share one object.
        const byLabels = new Map<SeriesLabels, SeriesLabels>();
        for (const [index, row] of rowsOfGroups(groups).entries()) {
          const sent = row[4];
          const got = rowsOf(read)[index]![4];
          if (sent === undefined) continue;
          if (!byLabels.has(sent)) byLabels.set(sent, got!);
          expect(got).toBe(byLabels.get(sent));
        }
      }),
    );
  });

  const rowsOfGroups = (groups: [string, Datum[]][]): DatumRow[] => groups.flatMap(([, each]) => each.map(toRow));

  it("refuse tables that disagree with the header or with each other", () => {
    const message = writeMessageBytes([
      ["m", [datum("a", "m", 1, "r", 1, lineUsage), datum("b", "m", 2, "r", 1, otlp), datum("c", "m")]],
    ]);
    const rows = 3;
    // Label-set indices, then sets (pair list, line), pair lists (count, resource attribute), pairs (name,
    // value), lines (measurement, field key, type); texts: cpu cpu0 host vm1 usage_idle device disk0 host.name.
    const setOfRowAt = headerBytes + 16 * rows + 4 * (1 + rows);
    const setsAt = setOfRowAt + 4 * rows;
    const pairListsAt = setsAt + 8 * 2;
    const pairsAt = pairListsAt + 8 * 2;
    const linesAt = pairsAt + 8 * 4;
    const changed = (at: number, value: number) => {
      const copy = message.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return copy;
    };
    // A row's index may name any set: row c now has row b's labels.
    expect(readIntakeMessage(changed(setOfRowAt + 8, 1)).metrics[0]![1][2]![4]).toEqual(
      readIntakeMessage(message).metrics[0]![1][1]![4],
    );
    expect(() => readIntakeMessage(changed(setOfRowAt, 2))).toThrow("row 0 names no label set");
    expect(() => readIntakeMessage(changed(setsAt, 2))).toThrow("label set 0 names no pair list or no line");
    expect(() => readIntakeMessage(changed(setsAt + 4, 1))).toThrow("label set 0 names no pair list or no line");
    expect(() => readIntakeMessage(changed(pairListsAt, 1))).toThrow("its pair lists hold fewer pairs than it has");
    expect(() => readIntakeMessage(changed(pairListsAt, 3))).toThrow("its pair lists hold more pairs than it has");
    expect(() => readIntakeMessage(changed(pairListsAt + 4, 2))).toThrow("pair list 0 has no pair 2");
    expect(() => readIntakeMessage(changed(pairsAt + 4, 8))).toThrow("a label names no text");
    expect(() => readIntakeMessage(changed(linesAt + 4, 8))).toThrow("a label names no text");
    expect(() => readIntakeMessage(changed(linesAt + 8, 4))).toThrow("line 0 has no field type");
    for (const count of [24, 28, 32, 36, 40, 44]) {
      expect(() => readIntakeMessage(changed(count, 9))).toThrow("does not describe its");
    }
  });

  it("read from malformed bytes either give rows or refuse them as malformed", () => {
    fc.assert(
      fc.property(
        messageArbitrary,
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 4 }),
        (data, changes) => {
          const message = writeMessageBytes([...Map.groupBy(data, ({ metric }) => metric)]);
          for (const [at, byte] of changes) message[at % message.length] = byte;
          try {
            readIntakeMessage(message);
          } catch (error) {
            expect(String(error)).toMatch(/^Error: malformed intake message: /);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
