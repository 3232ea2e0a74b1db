import SnappyJS from "snappyjs";
import { describe, expect, it } from "vitest";
import { encodeRequest } from "../../../src/worker/intake/otlp/testing/otlp-protobuf-encoder";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder";
import { gzip } from "../support/agent-routes";
import { request } from "../support/http";

const post = (path: string, body: string | Uint8Array, headers: Record<string, string>) =>
  request("POST", path, { body, headers });

async function answer(response: Response) {
  const body = new TextDecoder().decode(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get("content-type"), body };
}

const lineProtocol = { "content-type": "text/plain; charset=utf-8" };
const remoteWrite = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };

describe("an empty request succeeds", () => {
  it.each(["/write", "/api/v2/write", "/v1/write", "/v1/api/v2/write"])(
    "at %s: no lines, blank lines or comments alone, gzipped or not, 204",
    async (path) => {
      for (const body of ["", "\n\n", "# a comment\n\n# another\n", await gzip("")]) {
        const headers = typeof body === "string" ? lineProtocol : { ...lineProtocol, "content-encoding": "gzip" };
        expect(await answer(await post(path, body, headers))).toEqual({ status: 204, type: null, body: "" });
      }
    },
  );

  it("at /api/v1/write: no series, or only metadata, 204", async () => {
    for (const writeRequest of [encodeWriteRequest([]), encodeWriteRequest([], { metadata: 3 })]) {
      const response = await post("/api/v1/write", SnappyJS.compress(writeRequest), remoteWrite);
      expect(await answer(response)).toEqual({ status: 204, type: null, body: "" });
    }
  });

  it("at /api/v1/write: series without samples, 204", async () => {
    const writeRequest = encodeWriteRequest([{ labels: { __name__: "empty_series", instance: "vm1" }, samples: [] }]);
    const response = await post("/api/v1/write", SnappyJS.compress(writeRequest), remoteWrite);
    expect(await answer(response)).toEqual({ status: 204, type: null, body: "" });
  });

  it("at /otlp/v1/metrics: {} and an empty protobuf body, answered in their encoding", async () => {
    const json = await post("/otlp/v1/metrics", "{}", { "content-type": "application/json" });
    expect(await answer(json)).toEqual({ status: 200, type: "application/json", body: "{}" });
    const protobuf = await post("/otlp/v1/metrics", new Uint8Array(0), { "content-type": "application/x-protobuf" });
    expect(await answer(protobuf)).toEqual({ status: 200, type: "application/x-protobuf", body: "" });
  });

  it("at /otlp/v1/metrics: resources without data points, 200", async () => {
    const withoutPoints = {
      resourceMetrics: [
        {
          resource: { attributes: [] },
          scopeMetrics: [{ metrics: [{ name: "empty.gauge", gauge: { dataPoints: [] } }] }],
        },
        { scopeMetrics: [] },
      ],
    };
    const json = await post("/otlp/v1/metrics", JSON.stringify(withoutPoints), { "content-type": "application/json" });
    expect(await answer(json)).toEqual({ status: 200, type: "application/json", body: "{}" });
    const protobuf = await post("/otlp/v1/metrics", encodeRequest(withoutPoints), {
      "content-type": "application/x-protobuf",
    });
    expect(await answer(protobuf)).toEqual({ status: 200, type: "application/x-protobuf", body: "" });
  });
});
