import { uncompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import {
  otlpExports,
  otlpPoints,
  remoteWriteBodies,
  remoteWriteSamples,
  telegrafBatchLines,
  telegrafCpuBodies,
  telegrafCpuFields,
} from "./agent-batches.ts";

const latin1 = (body: Uint8Array) => new TextDecoder("latin1").decode(body);
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("the agents' batches", () => {
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

  it("Prometheus: snappy-compressed WriteRequests of 2,000 single-sample series", () => {
    const bodies = remoteWriteBodies(2);
    expect(bodies).toHaveLength(2);
    const message = latin1(uncompress(bodies[0]!));
    expect(occurrences(message, "__name__")).toBe(remoteWriteSamples);
    expect(occurrences(message, "node_load1")).toBe(remoteWriteSamples / 10);
    expect(occurrences(message, "host-024:9100")).toBe(remoteWriteSamples / 25);
  });

  it("OpenTelemetry: the SDK's exports of 1,000 points from one host, in both encodings", async () => {
    const exports = await otlpExports(2);
    expect(exports).toHaveLength(2);
    const message = latin1(exports[1]!.protobuf);
    expect(message).toContain("host-000");
    expect(occurrences(message, "disk12")).toBe(10 * 4);
    const json = JSON.stringify(exports[1]!.json);
    expect(occurrences(json, '"disk12"')).toBe(10 * 4);
    expect(otlpPoints).toBe(1_000);
  });
});
