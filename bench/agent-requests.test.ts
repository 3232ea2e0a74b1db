import { gunzipSync } from "node:zlib";
import { uncompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import {
  otlpPoints,
  otlpRequests,
  remoteWriteRequests,
  remoteWriteSamples,
  telegrafBatchLines,
  telegrafCpuBodies,
  telegrafCpuFields,
  telegrafRequests,
} from "./agent-requests.ts";

const text = (body: string | Uint8Array | undefined) =>
  typeof body === "string" ? body : new TextDecoder("latin1").decode(body);
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("the agents' requests", () => {
  it("Telegraf: 1,000 cpu lines of the 10 usage fields, the same series in every batch, a collection later", () => {
    const [first, second] = telegrafCpuBodies(2) as [string, string];
    const lines = first.trimEnd().split("\n");
    expect(lines).toHaveLength(telegrafBatchLines);
    expect(lines[9]).toMatch(
      /^cpu,cpu=cpu1,host=host-001 usage_user=[\d.e-]+,usage_system=[\d.e-]+,.*usage_guest_nice=[\d.e-]+ \d{19}$/,
    );
    for (const line of lines)
      expect(
        line
          .split(" ")[1]!
          .split(",")
          .map((field) => field.split("=")[0]),
      ).toEqual([...telegrafCpuFields]);
    const seriesAndTime = (body: string) =>
      body
        .trimEnd()
        .split("\n")
        .map((line) => [line.split(" ")[0], BigInt(line.split(" ")[2]!)] as const);
    const [earlier, later] = [seriesAndTime(first), seriesAndTime(second)];
    expect(later.map(([series]) => series)).toEqual(earlier.map(([series]) => series));
    expect(later[0]![1] - earlier[0]![1]).toBe(10_000_000_000n);
  });

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

  it("Prometheus: snappy-compressed WriteRequests of 2,000 single-sample series", () => {
    const requests = remoteWriteRequests(2);
    expect(requests.bodies).toHaveLength(2);
    expect(requests.dataPerRequest).toBe(remoteWriteSamples);
    const message = text(uncompress(requests.bodies[0] as Uint8Array));
    expect(occurrences(message, "__name__")).toBe(remoteWriteSamples);
    expect(occurrences(message, "node_load1")).toBe(remoteWriteSamples / 10);
    expect(occurrences(message, "host-024:9100")).toBe(remoteWriteSamples / 25);
  });

  it("OpenTelemetry: the SDK's protobuf exports of 1,000 points from one host", async () => {
    const requests = await otlpRequests(2);
    expect(requests).toMatchObject({
      path: "/otlp/v1/metrics",
      contentType: "application/x-protobuf",
      dataPerRequest: otlpPoints,
    });
    expect(requests.bodies).toHaveLength(2);
    const message = text(requests.bodies[1]);
    expect(message).toContain("host-000");
    expect(occurrences(message, "disk12")).toBe(10 * 4);
  });
});
