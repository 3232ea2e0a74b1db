import { describe, expect, it } from "vitest";
import { request, sendJson } from "../support/http";
import { recentData, waitForData } from "../support/recent-data";

const gauge = (name: string, points: object[], resource = [{ key: "host.name", value: { stringValue: "vm1" } }]) => ({
  resourceMetrics: [
    { resource: { attributes: resource }, scopeMetrics: [{ metrics: [{ name, gauge: { dataPoints: points } }] }] },
  ],
});

describe("POST /otlp/v1/metrics", () => {
  it("accepts a JSON export with 200 {} and keys the data by the resource", async () => {
    const response = await sendJson(
      "POST",
      "/otlp/v1/metrics",
      gauge("otlp.api.depth", [
        {
          asInt: "7",
          timeUnixNano: "1700000000123456789",
          attributes: [{ key: "queue", value: { stringValue: "in" } }],
        },
      ]),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(await waitForData("otlp.api.depth", 1)).toMatchObject([
      { resourceId: "vm1,queue=in", value: 7, timestamp: 1700000000123 },
    ]);
  });

  it("answers partialSuccess for the rejected points and accepts the rest", async () => {
    const response = await sendJson(
      "POST",
      "/otlp/v1/metrics",
      gauge("otlp.api.partial", [
        { asDouble: 1.5, timeUnixNano: "1700000000000000000" },
        { timeUnixNano: "1", asDouble: "not a number" },
      ]),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      partialSuccess: { rejectedDataPoints: "1", errorMessage: expect.stringContaining("otlp.api.partial") },
    });
    expect(await waitForData("otlp.api.partial", 1)).toMatchObject([{ value: 1.5 }]);
  });

  it("refuses a body that is no export request, and other content types, accepting nothing", async () => {
    const broken = await request("POST", "/otlp/v1/metrics", {
      body: new Uint8Array([0x0a, 0x05, 0x01]),
      headers: { "content-type": "application/x-protobuf" },
    });
    expect(broken.status).toBe(400);
    expect(broken.headers.get("content-type")).toBe("application/x-protobuf");
    const text = await request("POST", "/otlp/v1/metrics", { body: "x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ code: 3, message: expect.stringContaining("application/x-protobuf") });
    expect((await recentData("otlp.api.never")).status).toBe(404);
  });
});
