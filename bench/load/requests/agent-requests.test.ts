import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { remoteWriteSamples, telegrafCpuBodies } from "./agent-batches.ts";
import { otlpRequests, remoteWriteRequests, telegrafRequests } from "./agent-requests.ts";

describe("the agents' requests", () => {
  it("Telegraf: gzip as content_encoding sends it, the same texts inside", () => {
    const texts = telegrafCpuBodies(1);
    const gzip = telegrafRequests(texts, "gzip");
    expect(gzip.headers).toEqual({ "content-encoding": "gzip" });
    expect(gunzipSync(gzip.bodies[0] as Uint8Array).toString()).toBe(texts[0]);
    expect(telegrafRequests(texts, "identity")).toMatchObject({
      bodies: texts,
      path: "/write?db=telegraf",
      dataPerRequest: 10_000,
    });
  });

  it("Prometheus: snappy as remote write 1.0 sends it", () => {
    const requests = remoteWriteRequests(2);
    expect(requests.bodies).toHaveLength(2);
    expect(requests).toMatchObject({
      path: "/api/v1/write",
      headers: { "content-encoding": "snappy", "x-prometheus-remote-write-version": "0.1.0" },
      dataPerRequest: remoteWriteSamples,
    });
  });

  it("OpenTelemetry: protobuf as the SDK's HTTP exporter sends it", async () => {
    const requests = await otlpRequests(1);
    expect(requests).toMatchObject({
      path: "/otlp/v1/metrics",
      contentType: "application/x-protobuf",
      dataPerRequest: 1_000,
    });
    expect(requests.bodies[0]).toBeInstanceOf(Uint8Array);
  });
});
