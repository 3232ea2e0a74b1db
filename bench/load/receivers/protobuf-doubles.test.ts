import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProtobufWriter } from "../../../src/worker/intake/common/testing/protobuf-writer.ts";
import { sdkExport } from "../../../src/worker/intake/otlp/testing/sdk-export.ts";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder.ts";
import { nestedDoubles } from "./protobuf-doubles.ts";

const sampleValues = [1, 2, 1];
const gaugePointValues = [1, 2, 2, 5, 1, 4];

const seriesArbitrary = fc.record({
  labels: fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 4 }),
  samples: fc.array(fc.record({ value: fc.double(), timestamp: fc.nat() }), { maxLength: 5 }),
  exemplars: fc.nat(3),
  histograms: fc.nat(3),
});

describe("the doubles of a nested protobuf field", () => {
  it("reads a WriteRequest's sample values, in order, and nothing of its exemplars or histograms", () => {
    fc.assert(
      fc.property(fc.array(seriesArbitrary, { maxLength: 8 }), fc.nat(3), (series, metadata) => {
        const body = encodeWriteRequest(series, { metadata });
        expect(nestedDoubles(body, sampleValues)).toEqual(
          series.flatMap(({ samples }) => samples.map(({ value }) => value)),
        );
      }),
    );
  });

  it("reads a value left out, as proto3 writers leave out a 0, as 0", () => {
    // vmagent's WriteRequests: a Sample of value 0 holds its timestamp only.
    const sample = (value?: number) => {
      const writer = new ProtobufWriter();
      if (value !== undefined) writer.doubleField(1, value);
      return writer.varintField(2, 5);
    };
    const series = new ProtobufWriter().messageField(2, sample()).messageField(2, sample(3));
    expect(nestedDoubles(new ProtobufWriter().messageField(1, series).finish(), sampleValues)).toEqual([0, 3]);
  });

  it("reads the values of the OpenTelemetry SDK's gauge points", async () => {
    const values = [0.5, 3.25, 12, 1e9];
    const { protobuf } = await sdkExport(
      [
        {
          kind: "gauge",
          integer: false,
          measurements: values.map((value, index) => ({ value, attributes: { cpu: `cpu${index}` } })),
        },
      ],
      { "service.name": "bench" },
    );
    expect(nestedDoubles(protobuf, gaugePointValues).sort((a, b) => a - b)).toEqual(values);
  });

  it("refuses bytes that are not protobuf", () => {
    const body = encodeWriteRequest([{ labels: [["__name__", "up"]], samples: [{ value: 1, timestamp: 1 }] }]);
    expect(() => nestedDoubles(body.subarray(0, body.length - 3), sampleValues)).toThrow(/past/);
    expect(() => nestedDoubles(Uint8Array.of(0x0b), sampleValues)).toThrow(/wire type 3/);
  });
});
