import { ProtobufMetricsSerializer } from "@opentelemetry/otlp-transformer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProtobufReader } from "../common/protobuf-reader";
import { exportResponseJson, exportResponseProtobuf, rpcStatusJson, rpcStatusProtobuf } from "./export-response";

/** A google.rpc.Status read back: code (field 1) and message (field 2). */
function readStatus(bytes: Uint8Array): { code?: number; message?: string } {
  const reader = new ProtobufReader(bytes);
  const status: { code?: number; message?: string } = {};
  while (reader.hasMore()) {
    const field = reader.field();
    if (field === 1) status.code = reader.varint();
    else if (field === 2) status.message = reader.string();
    else reader.skip(reader.type);
  }
  return status;
}

describe("exportResponseJson", () => {
  it("is an empty object on a full success", () => {
    expect(exportResponseJson(undefined)).toBe("{}");
  });

  it("gives the rejected count as an int64 string, and the message", () => {
    expect(JSON.parse(exportResponseJson({ rejectedDataPoints: 3, errorMessage: 'metric "m": …' }))).toEqual({
      partialSuccess: { rejectedDataPoints: "3", errorMessage: 'metric "m": …' },
    });
  });

  it("leaves out fields at their default, as a warning without rejections has none", () => {
    expect(JSON.parse(exportResponseJson({ rejectedDataPoints: 0, errorMessage: "note" }))).toEqual({
      partialSuccess: { errorMessage: "note" },
    });
    expect(JSON.parse(exportResponseJson({ rejectedDataPoints: 2, errorMessage: "" }))).toEqual({
      partialSuccess: { rejectedDataPoints: "2" },
    });
  });
});

describe("exportResponseProtobuf", () => {
  it("is an empty message on a full success", () => {
    expect(exportResponseProtobuf(undefined)).toEqual(new Uint8Array(0));
    expect(ProtobufMetricsSerializer.deserializeResponse(exportResponseProtobuf(undefined))).toEqual({});
  });

  it("encodes partial_success as the protobuf wire format has it", () => {
    expect([...exportResponseProtobuf({ rejectedDataPoints: 300, errorMessage: "é" })]).toEqual([
      0x0a, 0x07, 0x08, 0xac, 0x02, 0x12, 0x02, 0xc3, 0xa9,
    ]);
    expect([...exportResponseProtobuf({ rejectedDataPoints: 0, errorMessage: "" })]).toEqual([0x0a, 0x00]);
  });

  it("reads back in the OpenTelemetry exporters' own response reader", () => {
    fc.assert(
      fc.property(fc.nat(), fc.string({ unit: "grapheme", maxLength: 300 }), (rejectedDataPoints, errorMessage) => {
        const response = ProtobufMetricsSerializer.deserializeResponse(
          exportResponseProtobuf({ rejectedDataPoints, errorMessage }),
        );
        expect(response.partialSuccess?.rejectedDataPoints ?? 0).toBe(rejectedDataPoints);
        expect(response.partialSuccess?.errorMessage ?? "").toBe(errorMessage);
      }),
    );
  });
});

describe("rpcStatusJson and rpcStatusProtobuf", () => {
  it.each([
    [400, 3],
    [413, 8],
    [415, 3],
    [503, 14],
    [418, 2],
  ])("give HTTP status %i the code %i, and the message", (httpStatus, code) => {
    expect(JSON.parse(rpcStatusJson(httpStatus, "why"))).toEqual({ code, message: "why" });
    expect(readStatus(rpcStatusProtobuf(httpStatus, "why"))).toEqual({ code, message: "why" });
  });

  it("leaves an empty message out of the protobuf form", () => {
    expect([...rpcStatusProtobuf(400, "")]).toEqual([0x08, 0x03]);
  });
});
