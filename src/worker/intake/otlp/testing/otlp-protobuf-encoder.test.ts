import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMetricsProtobuf } from "../metrics-protobuf";
import { encodeMessage, encodeRequest, varint } from "./otlp-protobuf-encoder";
import { recordingsArbitrary, sdkExport } from "./sdk-export";

describe("the test encoder of OTLP protobuf", () => {
  it("writes the wire format: tags, varints, fixed64, doubles, packed and embedded messages", () => {
    expect([...varint(300n)]).toEqual([0xac, 0x02]);
    expect([...encodeMessage("KeyValue", { key: "k", value: { intValue: "-1" } })]).toEqual([
      0x0a,
      0x01,
      0x6b,
      0x12,
      0x0b,
      0x18,
      ...new Array(9).fill(0xff),
      0x01,
    ]);
    expect([...encodeMessage("NumberDataPoint", { timeUnixNano: "1", asDouble: 1, flags: 1 })]).toEqual([
      0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x21, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x40, 1,
    ]);
    expect([...encodeMessage("HistogramDataPoint", { bucketCounts: ["1", "2"] })]).toEqual([
      0x32, 16, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect([...encodeMessage("Buckets", { offset: -2, bucketCounts: ["300"] })]).toEqual([
      0x08, 3, 0x12, 2, 0xac, 0x02,
    ]);
    expect([...encodeRequest({ resourceMetrics: [{ schemaUrl: "a", resource: null }] })]).toEqual([
      0x0a, 3, 0x1a, 1, 0x61,
    ]);
  });

  it("refuses fields the schema does not have", () => {
    expect(() => encodeMessage("Metric", { nme: "x" })).toThrow("Metric has no field nme");
  });

  it("encodes the SDK's JSON export as the SDK's protobuf export, as far as the reader can tell", async () => {
    await fc.assert(
      fc.asyncProperty(recordingsArbitrary, async (recordings) => {
        const { protobuf, json } = await sdkExport(recordings, { "service.name": "shop" });
        expect(readMetricsProtobuf(encodeRequest(json as object), 0, 1_000)).toEqual(
          readMetricsProtobuf(protobuf, 0, 1_000),
        );
      }),
      { numRuns: 20 },
    );
  });
});
