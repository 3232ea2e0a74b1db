import { compress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { sdkExport } from "../../../src/worker/intake/otlp/testing/sdk-export.ts";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder.ts";
import { backendBenchFormats, deliveredValues, lineProtocolValues } from "./backend-payloads.ts";

describe("the values of a delivered payload", () => {
  it("reads a snappy WriteRequest's samples", () => {
    const body = compress(
      encodeWriteRequest([
        { labels: [["__name__", "a"]], samples: [0, 1].map((value) => ({ value, timestamp: value })) },
        { labels: [["__name__", "b"]], samples: [{ value: 2, timestamp: 5 }] },
      ]),
    );
    expect(deliveredValues("PROMETHEUS", Buffer.from(body))).toEqual([0, 1, 2]);
  });

  it("reads an OTLP request's gauge points", async () => {
    const { protobuf } = await sdkExport(
      [{ kind: "gauge", integer: false, measurements: [{ value: 7, attributes: {} }] }],
      { "service.name": "bench" },
    );
    expect(deliveredValues("OTLP", Buffer.from(protobuf))).toEqual([7]);
  });

  it("reads the value field of each line, whatever its type suffix", () => {
    const text = "m,instance=h:9100,job=b value=3 1000000\nm,resourceId=r other=1,value=4i\nm value=5u 1\n";
    expect(deliveredValues("INFLUXDB", Buffer.from(text))).toEqual([3, 4, 5]);
    expect(lineProtocolValues("m other=1 1\n")).toBeUndefined();
    expect(lineProtocolValues("m,value=1\n")).toBeUndefined();
    expect(lineProtocolValues("m value=x 1\n")).toBeUndefined();
  });

  it("reads a compact TOWER/JSON array", () => {
    const body = JSON.stringify([8, 9].map((value) => ({ resourceId: "r", metric: "m", value, timestamp: 1 })));
    expect(deliveredValues("TOWER/JSON", Buffer.from(body))).toEqual([8, 9]);
  });

  it("says a payload of another shape is none", () => {
    for (const format of backendBenchFormats) {
      expect(deliveredValues(format, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toBeUndefined();
    }
  });
});
