import { describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/problems";
import { rpcStatusProtobuf } from "./export-response";
import { encodingOf, statusAnswer } from "./status-answer";

describe("encodingOf", () => {
  it.each([
    ["application/x-protobuf", "protobuf"],
    ["Application/JSON; charset=utf-8", "json"],
    ["text/plain", undefined],
    [undefined, undefined],
    [null, undefined],
  ])("reads %s as %s", (contentType, encoding) => {
    expect(encodingOf(contentType)).toBe(encoding);
  });
});

describe("statusAnswer", () => {
  const error = new ApiError("unauthorized", "No token.", { headers: { "www-authenticate": "Bearer" } });

  it("answers a google.rpc.Status in JSON", async () => {
    const response = statusAnswer("json")(error);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toEqual({ code: 16, message: "No token." });
  });

  it("answers a google.rpc.Status in protobuf", async () => {
    const response = statusAnswer("protobuf")(error);
    expect(response.headers.get("content-type")).toBe("application/x-protobuf");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(rpcStatusProtobuf(401, "No token."));
  });
});
