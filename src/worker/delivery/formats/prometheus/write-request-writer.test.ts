import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeWriteRequest, type SeriesToEncode } from "../../../intake/remote-write/testing/write-request-encoder";
import { readWriteRequest } from "../../../intake/remote-write/write-request";
import type { Label } from "../../../vocabulary/datum";
import { byLabelName } from "../label-changes";
import { readBack, type SampledSeries } from "./testing/remote-write-cases";
import { encodeLabelFields, type TimeSeriesPart, writeRequestBytes } from "./write-request-writer";

const partOf = ({ labels, samples }: SampledSeries, from = 0, to = samples.length): TimeSeriesPart => ({
  labelFields: encodeLabelFields(labels),
  timestamps: samples.map((sample) => sample.timestamp),
  values: samples.map((sample) => sample.value),
  from,
  to,
});

/** The same series as the independent test encoder writes them. */
const independent = (series: SampledSeries[]) =>
  encodeWriteRequest(
    series.map(
      ({ labels, samples }): SeriesToEncode => ({
        labels: labels.map(([name, value]): [string, string] => [name, value]),
        samples,
      }),
    ),
  );

const cpu: SampledSeries = {
  labels: [
    ["__name__", "node_cpu_seconds_total"],
    ["cpu", "0"],
    ["instance", "vm1:9100"],
    ["mode", "idle"],
  ],
  samples: [
    { value: 1234.5, timestamp: 1_700_000_000_000 },
    { value: Number.NaN, timestamp: 1_700_000_015_000 },
    { value: Number.POSITIVE_INFINITY, timestamp: -1 },
    { value: Number.NEGATIVE_INFINITY, timestamp: Number.MIN_SAFE_INTEGER },
    { value: -0, timestamp: Number.MAX_SAFE_INTEGER },
    { value: 0, timestamp: 0 },
  ],
};

/** The bits of each sample's value in a WriteRequest of one series with no labels. */
function valueBits(body: Uint8Array): bigint[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const bits: bigint[] = [];
  // WriteRequest tag and length (2), then each Sample: tag, length, value tag, 8 bytes, timestamp.
  for (let at = 2; at < body.length; at += 2 + body[at + 1]!) bits.push(view.getBigUint64(at + 3, true));
  return bits;
}

describe("writeRequestBytes", () => {
  it("writes the bytes an independent encoder writes: labels, then samples of any value and time", () => {
    const body = writeRequestBytes([partOf(cpu)]);
    expect(body).toEqual(independent([cpu]));
    expect(readBack(body)).toEqual([cpu]);
  });

  it("writes a negative timestamp as a 10-byte varint, its 64-bit two's complement", () => {
    const body = writeRequestBytes([partOf({ labels: [], samples: [{ value: 1, timestamp: -2 }] })]);
    expect([...body.subarray(-11)]).toEqual([0x10, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
  });

  it("writes a NaN as the quiet NaN, never as Prometheus's stale marker", () => {
    const nanWithPayload = new DataView(new ArrayBuffer(8));
    nanWithPayload.setBigUint64(0, 0x7ff0000000000002n);
    const samples = [Number.NaN, nanWithPayload.getFloat64(0)].map((value) => ({ value, timestamp: 5 }));
    const body = writeRequestBytes([partOf({ labels: [], samples })]);
    expect(valueBits(body)).toEqual([0x7ff8000000000000n, 0x7ff8000000000000n]);
    expect(readWriteRequest(body, 10).staleMarkers).toBe(0);
  });

  it("writes the samples of a part only, and labels in UTF-8", () => {
    const labels: Label[] = [
      ["__name__", "up"],
      ["zone", "zürich 東京 🦀"],
    ];
    const series = { labels, samples: [1, 2, 3, 4].map((value) => ({ value, timestamp: value * 1_000 })) };
    const body = writeRequestBytes([partOf(series, 1, 3), partOf(series, 3, 4)]);
    expect(readBack(body)).toEqual([
      { labels, samples: series.samples.slice(1, 3) },
      { labels, samples: series.samples.slice(3) },
    ]);
  });

  it("writes an empty request for no series", () => {
    expect(writeRequestBytes([])).toEqual(new Uint8Array());
  });

  it.each([1.5, Number.NaN, 2 ** 53])("refuses a timestamp of %s, which is no safe integer", (timestamp) => {
    expect(() => writeRequestBytes([partOf({ labels: [], samples: [{ value: 1, timestamp }] })])).toThrow(RangeError);
  });

  it("writes any series as the independent encoder does, and our reader reads them back", () => {
    const name = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 });
    const series = fc.record({
      labels: fc
        .uniqueArray(fc.tuple(name, fc.string({ unit: "grapheme", maxLength: 30 })), {
          selector: ([key]) => key,
          maxLength: 6,
        })
        .map((labels): Label[] => [["__name__", "metric"], ...labels.filter(([key]) => key !== "__name__")]),
      samples: fc.array(
        fc.record({
          value: fc.double(),
          timestamp: fc.oneof(fc.maxSafeInteger(), fc.integer({ min: 1e12, max: 1e13 }), fc.integer()),
        }),
        { minLength: 1, maxLength: 20 },
      ),
    });
    fc.assert(
      fc.property(fc.array(series, { maxLength: 8 }), (list) => {
        const body = writeRequestBytes(list.map((each) => partOf(each)));
        expect(body).toEqual(independent(list));
        const sorted = list.map(({ labels, samples }) => ({
          labels: [...labels].sort(byLabelName),
          samples,
        }));
        expect(readBack(body)).toEqual(sorted);
      }),
    );
  });
});

describe("encodeLabelFields", () => {
  it("writes each label as a TimeSeries' field 1: a Label of name (1) and value (2)", () => {
    expect([...encodeLabelFields([["a", "bc"]])]).toEqual([0x0a, 7, 0x0a, 1, 0x61, 0x12, 2, 0x62, 0x63]);
    expect(encodeLabelFields([])).toEqual(new Uint8Array());
  });
});
