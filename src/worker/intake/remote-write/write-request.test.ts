import fc from "fast-check";
import { compress as snappyjsCompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { ProtobufError } from "../common/protobuf-reader";
import { ProtobufWriter } from "../common/testing/protobuf-writer";
import { decodeSnappyBlock } from "./snappy";
import { encodeWriteRequest, type SeriesToEncode, staleMarkerBits } from "./testing/write-request-encoder";
import { readWriteRequest } from "./write-request";

const many = 1_000_000;
const read = (series: SeriesToEncode[], maxPoints = many) => readWriteRequest(encodeWriteRequest(series), maxPoints);

const cpu: SeriesToEncode = {
  labels: { __name__: "node_cpu_seconds_total", cpu: "0", instance: "vm1:9100", job: "node", mode: "idle" },
  samples: [
    { value: 1234.5, timestamp: 1_700_000_000_000 },
    { value: 1235.5, timestamp: 1_700_000_015_000 },
  ],
};

/** A label message with the given fields, for bodies the encoder would not write. */
const label = (name: string, value: string) => new ProtobufWriter().stringField(1, name).stringField(2, value);

describe("readWriteRequest", () => {
  it("reads a series: labels but __name__ in the order sent, the name as the metric, its samples as points", () => {
    expect(read([cpu])).toEqual({
      series: [
        {
          labels: [
            ["cpu", "0"],
            ["instance", "vm1:9100"],
            ["job", "node"],
            ["mode", "idle"],
          ],
          origin: 0,
          points: [
            { metric: "node_cpu_seconds_total", value: 1234.5, timestamp: 1_700_000_000_000 },
            { metric: "node_cpu_seconds_total", value: 1235.5, timestamp: 1_700_000_015_000 },
          ],
        },
      ],
      refused: [],
      staleMarkers: 0,
      points: 2,
      tooMany: false,
    });
  });

  it("keeps labels in the order sent, __name__ wherever it is", () => {
    const result = read([
      {
        labels: [
          ["zone", "b"],
          ["__name__", "up"],
          ["app", "a"],
        ],
        samples: [{ value: 1, timestamp: 5 }],
      },
    ]);
    expect(result.series[0]!.labels).toEqual([
      ["zone", "b"],
      ["app", "a"],
    ]);
    expect(result.series[0]!.points[0]!.metric).toBe("up");
  });

  it("reads the labels of a series wherever they are sent, after its samples too", () => {
    const sample = new ProtobufWriter().doubleField(1, 2.5).varintField(2, 42);
    const series = new ProtobufWriter()
      .messageField(2, sample)
      .messageField(1, label("__name__", "late"))
      .messageField(1, label("a", "b"));
    const result = readWriteRequest(new ProtobufWriter().messageField(1, series).finish(), many);
    expect(result.series).toEqual([
      { labels: [["a", "b"]], origin: 0, points: [{ metric: "late", value: 2.5, timestamp: 42 }] },
    ]);
  });

  it("reads labels sent apart, around the samples", () => {
    const sample = new ProtobufWriter().doubleField(1, 2.5).varintField(2, 42);
    const series = new ProtobufWriter()
      .messageField(1, label("a", "b"))
      .messageField(2, sample)
      .messageField(1, label("__name__", "apart"))
      .messageField(1, label("c", "d"));
    const result = readWriteRequest(new ProtobufWriter().messageField(1, series).finish(), many);
    expect(result.series).toEqual([
      {
        labels: [
          ["a", "b"],
          ["c", "d"],
        ],
        origin: 0,
        points: [{ metric: "apart", value: 2.5, timestamp: 42 }],
      },
    ]);
  });

  it("finds a label set sent before again by its bytes, in a later request too", () => {
    const series: SeriesToEncode = {
      labels: { __name__: "tabled", id: crypto.randomUUID() },
      samples: [{ value: 1, timestamp: 1 }],
    };
    const first = read([series, { ...series, samples: [{ value: 2, timestamp: 2 }] }]);
    const later = read([series]);
    expect(first.series[1]!.labels).toBe(first.series[0]!.labels);
    expect(later.series[0]!.labels).toBe(first.series[0]!.labels);
    expect(later.series[0]!.points).toEqual([{ metric: "tabled", value: 1, timestamp: 1 }]);
  });

  it("refuses a body with the error met first in order, though its labels are passed over before they are decoded", () => {
    const notUtf8 = new ProtobufWriter().bytesField(1, Uint8Array.of(0xff));
    const series = new ProtobufWriter().messageField(1, notUtf8).raw(Uint8Array.of(0x12, 9, 1));
    const body = new ProtobufWriter().messageField(1, series).finish();
    expect(() => readWriteRequest(body, many)).toThrow(/a string field is not valid UTF-8 at byte 6/);
  });

  it("numbers series from 0 in the order sent, refused ones included", () => {
    const result = read([cpu, { labels: { job: "x" }, samples: [{ value: 1, timestamp: 1 }] }, cpu]);
    expect(result.series.map(({ origin }) => origin)).toEqual([0, 2]);
    expect(result.refused).toEqual([{ origin: 1, message: "it has no __name__ label, which names its metric" }]);
    expect(result.points).toBe(4);
  });

  it.each([
    ["no __name__", { job: "x" }, /no __name__ label/],
    ["an empty __name__", { __name__: "", job: "x" }, /no __name__ label/],
    ["no label at all", {}, /no __name__ label/],
    [
      "two __name__ labels",
      [
        ["__name__", "a"],
        ["__name__", "b"],
      ],
      /label __name__ is given more than once/,
    ],
    ["a label with an empty name", { __name__: "up", "": "x" }, /label with an empty name/],
    [
      "a label given twice, in order",
      [
        ["__name__", "up"],
        ["a", "1"],
        ["a", "2"],
      ],
      /label "a" is given more than once/,
    ],
    [
      "a label given twice, out of order",
      [
        ["__name__", "up"],
        ["b", "1"],
        ["a", "1"],
        ["b", "2"],
      ],
      /label "b" is given/,
    ],
  ] as [string, SeriesToEncode["labels"], RegExp][])(
    "refuses a series with %s, keeping the others",
    (_, labels, message) => {
      const result = read([{ labels, samples: [{ value: 1, timestamp: 1 }] }, cpu]);
      expect(result.refused).toHaveLength(1);
      expect(result.refused[0]!.origin).toBe(0);
      expect(result.refused[0]!.message).toMatch(message);
      expect(result.series.map(({ origin }) => origin)).toEqual([1]);
      expect(result.points).toBe(2);
    },
  );

  it("accepts labels out of order when none repeats", () => {
    const labels: [string, string][] = [
      ["__name__", "up"],
      ["b", "1"],
      ["a", "1"],
    ];
    expect(read([{ labels, samples: [{ value: 1, timestamp: 1 }] }]).refused).toEqual([]);
  });

  it("refuses native histograms but keeps the series' float samples", () => {
    const result = read([
      { ...cpu, histograms: 3 },
      { labels: { __name__: "only_histograms" }, samples: [], histograms: 1 },
    ]);
    expect(result.series).toHaveLength(1);
    expect(result.series[0]!.points).toHaveLength(2);
    expect(result.refused).toEqual([
      { origin: 0, message: expect.stringMatching(/^native histograms are not supported; its 3 histogram samples/) },
      { origin: 1, message: expect.stringMatching(/^native histograms are not supported; its 1 histogram samples/) },
    ]);
  });

  it("skips exemplars and metadata", () => {
    const body = encodeWriteRequest([{ ...cpu, exemplars: 2 }], { metadata: 3 });
    expect(readWriteRequest(body, many)).toEqual(read([cpu]));
  });

  it("reads a metadata-only request, or an empty one, as no series", () => {
    const empty = { series: [], refused: [], staleMarkers: 0, points: 0, tooMany: false };
    expect(readWriteRequest(encodeWriteRequest([], { metadata: 2 }), many)).toEqual(empty);
    expect(readWriteRequest(new Uint8Array(), many)).toEqual(empty);
  });

  it("leaves out a series whose samples are all stale markers", () => {
    const result = read([{ labels: { __name__: "up" }, samples: [{ value: staleMarkerBits, timestamp: 1 }] }]);
    expect(result).toMatchObject({ series: [], refused: [], staleMarkers: 1, points: 0 });
  });

  it("skips and counts stale markers by their bits; other NaNs and infinities are data", () => {
    const otherNaN = 0x7ff8000000000001n;
    const result = read([
      {
        labels: { __name__: "up" },
        samples: [
          { value: staleMarkerBits, timestamp: 1 },
          { value: Number.NaN, timestamp: 2 },
          { value: otherNaN, timestamp: 3 },
          { value: 0x7ff0000000000003n, timestamp: 4 },
          { value: 0xfff0000000000002n, timestamp: 5 },
          { value: Number.POSITIVE_INFINITY, timestamp: 6 },
          { value: Number.NEGATIVE_INFINITY, timestamp: 7 },
          { value: staleMarkerBits, timestamp: 8 },
          { value: -0, timestamp: 9 },
        ],
      },
    ]);
    expect(result.staleMarkers).toBe(2);
    const points = result.series[0]!.points;
    expect(points.map(({ timestamp }) => timestamp)).toEqual([2, 3, 4, 5, 6, 7, 9]);
    expect(points.slice(0, 4).every(({ value }) => Number.isNaN(value))).toBe(true);
    expect(points.slice(4).map(({ value }) => value)).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0]);
    expect(Object.is(points[6]!.value, -0)).toBe(true);
  });

  it("counts the stale markers of refused series too", () => {
    const result = read([{ labels: { job: "x" }, samples: [{ value: staleMarkerBits, timestamp: 1 }] }]);
    expect(result.staleMarkers).toBe(1);
  });

  it.each([
    [0, 0],
    [-1, -1],
    [-1_700_000_000_000, -1_700_000_000_000],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
  ])("reads the timestamp %d", (timestamp, expected) => {
    expect(
      read([{ labels: { __name__: "up" }, samples: [{ value: 1, timestamp }] }]).series[0]!.points[0]!.timestamp,
    ).toBe(expected);
  });

  it("reads timestamps beyond 2^53 as the nearest double", () => {
    const sample = new ProtobufWriter().doubleField(1, 1).varintField(2, -(1n << 63n));
    const series = new ProtobufWriter().messageField(1, label("__name__", "up")).messageField(2, sample);
    const result = readWriteRequest(new ProtobufWriter().messageField(1, series).finish(), many);
    expect(result.series[0]!.points[0]!.timestamp).toBe(-(2 ** 63));
  });

  it("reads a sample without fields as the value 0 at time 0, as proto3 defaults them", () => {
    const series = new ProtobufWriter().messageField(1, label("__name__", "up")).messageField(2, new ProtobufWriter());
    const result = readWriteRequest(new ProtobufWriter().messageField(1, series).finish(), many);
    expect(result.series[0]!.points).toEqual([{ metric: "up", value: 0, timestamp: 0 }]);
  });

  it("skips unknown fields at every level", () => {
    const unknown = (writer: ProtobufWriter) =>
      writer.varintField(9, 1).fixed64Field(10, 2n).stringField(11, "x").fixed32Field(12, 3);
    const sample = unknown(new ProtobufWriter().doubleField(1, 7)).varintField(2, 8);
    const series = unknown(new ProtobufWriter().messageField(1, unknown(label("__name__", "up")))).messageField(
      2,
      sample,
    );
    const body = unknown(new ProtobufWriter()).messageField(1, series).varintField(2, 5);
    expect(readWriteRequest(unknown(body).finish(), many).series).toEqual([
      { labels: [], origin: 0, points: [{ metric: "up", value: 7, timestamp: 8 }] },
    ]);
  });

  it("takes a label field given twice as its last value, as protobuf does", () => {
    const twice = new ProtobufWriter().stringField(1, "ignored").stringField(1, "__name__").stringField(2, "up");
    const series = new ProtobufWriter().messageField(1, twice).messageField(2, new ProtobufWriter().doubleField(1, 1));
    expect(
      readWriteRequest(new ProtobufWriter().messageField(1, series).finish(), many).series[0]!.points[0]!.metric,
    ).toBe("up");
  });

  it("stops past maxPoints and says so", () => {
    const series = (name: string, count: number): SeriesToEncode => ({
      labels: { __name__: name },
      samples: Array.from({ length: count }, (_, index) => ({ value: index, timestamp: index })),
    });
    expect(read([series("a", 2), series("b", 3)], 5)).toMatchObject({ points: 5, tooMany: false });
    const over = read([series("a", 2), series("b", 3), series("c", 1)], 5);
    expect(over.tooMany).toBe(true);
    expect(over.series.map(({ origin }) => origin)).toEqual([0, 1]);
    expect(read([series("a", 2), series("b", 4)], 5)).toMatchObject({ points: 5, tooMany: true });
    expect(read([series("a", 1)], 0)).toMatchObject({ series: [], tooMany: true });
  });

  it("does not count stale markers or refused series' samples as points", () => {
    const stale = { labels: { __name__: "up" }, samples: [{ value: staleMarkerBits, timestamp: 1 }] };
    const nameless = { labels: { job: "x" }, samples: [{ value: 1, timestamp: 1 }] };
    expect(read([stale, nameless, cpu], 2)).toMatchObject({ points: 2, tooMany: false });
  });

  describe("bodies that are no WriteRequest", () => {
    const nested = (series: ProtobufWriter) => new ProtobufWriter().messageField(1, series).finish();
    const name = label("__name__", "up");

    it.each([
      ["a timeseries field that is a varint", new ProtobufWriter().varintField(1, 1).finish()],
      ["a metadata field that is a fixed64", new ProtobufWriter().fixed64Field(3, 1n).finish()],
      ["a labels field that is a varint", nested(new ProtobufWriter().varintField(1, 1))],
      ["a samples field that is a fixed32", nested(new ProtobufWriter().messageField(1, name).fixed32Field(2, 1))],
      ["an exemplars field that is a varint", nested(new ProtobufWriter().varintField(3, 1))],
      ["a histograms field that is a fixed64", nested(new ProtobufWriter().fixed64Field(4, 1n))],
      [
        "a label name that is a varint",
        nested(new ProtobufWriter().messageField(1, new ProtobufWriter().varintField(1, 1))),
      ],
      [
        "a label value that is a fixed64",
        nested(new ProtobufWriter().messageField(1, new ProtobufWriter().fixed64Field(2, 1n))),
      ],
      [
        "a sample value that is a varint",
        nested(new ProtobufWriter().messageField(1, name).messageField(2, new ProtobufWriter().varintField(1, 1))),
      ],
      [
        "a sample timestamp that is a fixed64",
        nested(new ProtobufWriter().messageField(1, name).messageField(2, new ProtobufWriter().fixed64Field(2, 1n))),
      ],
      [
        "a sample of a refused series that is cut short",
        nested(new ProtobufWriter().messageField(2, new ProtobufWriter().raw(Uint8Array.of(0x09, 1, 2)))),
      ],
      [
        "a label name that is not UTF-8",
        nested(new ProtobufWriter().messageField(1, new ProtobufWriter().bytesField(1, Uint8Array.of(0xff)))),
      ],
      ["a group (wire type 3)", new ProtobufWriter().tag(1, 3).finish()],
      ["field number 0", Uint8Array.of(0x00, 0x00)],
    ])("refuses %s with a ProtobufError", (_, body) => {
      expect(() => readWriteRequest(body, many)).toThrow(ProtobufError);
    });

    it("refuses every truncation of a valid body within a field with a ProtobufError", () => {
      // Messages concatenated are one message: the cuts between these top-level fields leave a valid body.
      const fields = [
        encodeWriteRequest([{ ...cpu, exemplars: 1, histograms: 1 }]),
        encodeWriteRequest([
          { labels: { __name__: "up", instance: "é✓" }, samples: [{ value: staleMarkerBits, timestamp: -5 }] },
        ]),
        encodeWriteRequest([], { metadata: 1 }),
      ];
      const body = Uint8Array.from(fields.flatMap((field) => [...field]));
      const boundaries = new Set(
        fields.map((_, index) => fields.slice(0, index + 1).reduce((sum, field) => sum + field.length, 0)),
      );
      expect(readWriteRequest(body, many)).toMatchObject({ points: 2, staleMarkers: 1 });
      for (let end = 1; end < body.length; end++) {
        const cut = () => readWriteRequest(body.subarray(0, end), many);
        if (boundaries.has(end)) expect(cut, `cut at ${end}`).not.toThrow();
        else expect(cut, `cut at ${end}`).toThrow(ProtobufError);
      }
    });
  });

  it("reads back any series an encoder writes, through snappy", () => {
    const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,12}$/).filter((name) => name !== "__name__");
    const seriesArbitrary = fc.record({
      name: fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,20}$/),
      labels: fc.uniqueArray(fc.tuple(labelName, fc.string({ unit: "grapheme", maxLength: 12 })), {
        selector: ([name]) => name,
        maxLength: 6,
      }),
      samples: fc.array(
        fc.record({
          value: fc.double(),
          timestamp: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    });
    fc.assert(
      fc.property(fc.array(seriesArbitrary, { maxLength: 8 }), (all) => {
        const body = encodeWriteRequest(
          all.map(({ name, labels, samples }) => ({ labels: [["__name__", name], ...labels], samples })),
        );
        const decompressed = decodeSnappyBlock(snappyjsCompress(body), body.length);
        const result = readWriteRequest(decompressed, many);
        expect(result.refused).toEqual([]);
        expect(result.staleMarkers).toBe(0);
        expect(result.series).toEqual(
          all.map(({ name, labels, samples }, origin) => ({
            labels,
            origin,
            points: samples.map(({ value, timestamp }) => ({ metric: name, value, timestamp })),
          })),
        );
        expect(result.points).toBe(all.reduce((sum, { samples }) => sum + samples.length, 0));
      }),
    );
  });

  it("reads random bytes to a result or a ProtobufError, nothing else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (body) => {
        try {
          readWriteRequest(body, many);
        } catch (error) {
          expect(error).toBeInstanceOf(ProtobufError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
