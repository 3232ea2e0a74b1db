import { describe, expect, it } from "vitest";
import { exportResponseJson, exportResponseProtobuf } from "../../intake/otlp/export-response";
import { rejectedDataPoints } from "./otlp-partial-success";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("rejectedDataPoints", () => {
  it.each([0, 1, 300, 2 ** 40])("reads %i rejected data points from either encoding of the answer", (rejected) => {
    const partial = { rejectedDataPoints: rejected, errorMessage: "some were refused" };
    expect(rejectedDataPoints(exportResponseProtobuf(partial), "OTLP")).toBe(rejected);
    expect(rejectedDataPoints(bytes(exportResponseJson(partial)), "OTLP/JSON")).toBe(rejected);
  });

  it("reads none from an empty answer, a full success, or an answer it cannot read", () => {
    expect(rejectedDataPoints(new Uint8Array(0), "OTLP")).toBe(0);
    expect(rejectedDataPoints(exportResponseProtobuf(undefined), "OTLP")).toBe(0);
    expect(rejectedDataPoints(bytes("{}"), "OTLP/JSON")).toBe(0);
    expect(rejectedDataPoints(bytes("not json"), "OTLP/JSON")).toBe(0);
    expect(rejectedDataPoints(new Uint8Array([0x0a, 0x05, 0x08]), "OTLP")).toBe(0);
    expect(rejectedDataPoints(bytes('{"partialSuccess":{"rejectedDataPoints":"-4"}}'), "OTLP/JSON")).toBe(0);
  });

  it("skips the fields it does not know", () => {
    // An unknown varint field 2, then partial_success with an unknown field 3 before rejected_data_points 7.
    const answer = new Uint8Array([0x10, 0x01, 0x0a, 0x04, 0x18, 0x02, 0x08, 0x07]);
    expect(rejectedDataPoints(answer, "OTLP")).toBe(7);
  });
});
