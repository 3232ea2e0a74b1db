import SnappyJS from "snappyjs";
import { describe, expect, it } from "vitest";
import {
  encodeWriteRequest,
  staleMarkerBits,
} from "../../../src/worker/intake/remote-write/testing/write-request-encoder";
import { request } from "../support/http";
import { recentData, waitForData } from "../support/recent-data";

const remoteWrite = (body: Uint8Array, headers: Record<string, string> = {}) =>
  request("POST", "/api/v1/write", {
    body: SnappyJS.compress(body),
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy", ...headers },
  });

describe("POST /api/v1/write", () => {
  it("accepts a snappy WriteRequest with 204, keyed by instance, stale markers skipped", async () => {
    const body = encodeWriteRequest([
      {
        labels: { __name__: "rw_up", job: "node", instance: "vm1:9100" },
        samples: [
          { value: 1, timestamp: 1700000000000 },
          { value: staleMarkerBits, timestamp: 1700000001000 },
        ],
      },
    ]);
    const response = await remoteWrite(body);
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: "" });
    expect(await waitForData("rw_up", 1)).toMatchObject([
      { resourceId: "vm1:9100,job=node", value: 1, timestamp: 1700000000000 },
    ]);
    const usage = (await (await request("GET", "/usage")).json()) as {
      intake: Record<string, { staleMarkersSkipped: number }>;
    };
    expect(usage.intake["/api/v1/write"]!.staleMarkersSkipped).toBeGreaterThanOrEqual(1);
  });

  it("accepts the valid series of a partly bad request and names the refused ones in text", async () => {
    const body = encodeWriteRequest([
      { labels: { __name__: "rw_partial", instance: "a" }, samples: [{ value: 2, timestamp: 1700000000000 }] },
      { labels: { instance: "nameless" }, samples: [{ value: 3, timestamp: 1700000000000 }] },
    ]);
    const response = await remoteWrite(body);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/^partial write: series 1: /);
    expect(await waitForData("rw_partial", 1)).toMatchObject([{ resourceId: "a", value: 2 }]);
  });

  it("refuses corrupt snappy and remote write 2.0, accepting nothing", async () => {
    const corrupt = await request("POST", "/api/v1/write", {
      body: new Uint8Array([10, 0x0c, 0x61]),
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    });
    expect(corrupt.status).toBe(400);
    const body = encodeWriteRequest([{ labels: { __name__: "rw_v2" }, samples: [{ value: 1, timestamp: 1 }] }]);
    const v2 = await remoteWrite(body, {
      "content-type": "application/x-protobuf;proto=io.prometheus.write.v2.Request",
    });
    expect(v2.status).toBe(415);
    expect((await recentData("rw_v2")).status).toBe(404);
  });
});
