import SnappyJS from "snappyjs";
import { describe, expect, it } from "vitest";
import { agentRoutes, gzip, influxV1Route, influxV2Route, remoteWriteRoute } from "../../api/support/agent-routes";
import { request } from "../../api/support/http";
import { recentData, waitForData } from "../../api/support/recent-data";

/** The limits of the limits project (vitest.config.ts); metric names there have at most 16 characters. */
const limits = { bodyBytes: 4096, agentData: 5, decompressedBytes: 65_536 };

/** A short metric name per route, distinct between the tests. */
const metricOf = (test: string, index: number) => `${test}.${index}`;

const tooManyData = `The request holds more than MAX_AGENT_DATA_PER_REQUEST (${limits.agentData}) data; send smaller batches.`;
const tooLargeDecompressed =
  `The body is larger than MAX_DECOMPRESSED_BYTES (${limits.decompressedBytes} bytes) once decompressed; ` +
  "send smaller batches.";

const routeCases = agentRoutes.map((route, index) => ({ route, index }));

async function expectNothingStored(metric: string): Promise<void> {
  expect((await recentData(metric)).status).toBe(404);
}

describe("MAX_AGENT_DATA_PER_REQUEST", () => {
  it.each(routeCases)("takes as many data as the limit at $route.name", async ({ route, index }) => {
    const metric = metricOf("fits", index);
    const response = await request("POST", route.path, route.send(metric, limits.agentData));
    expect(response.status).toBe(route.success);
    await response.body?.cancel();
    expect(await waitForData(metric, limits.agentData)).toHaveLength(limits.agentData);
  });

  it.each(routeCases)("refuses one datum more with 413 at $route.name, accepting nothing", async ({ route, index }) => {
    const metric = metricOf("over", index);
    const response = await request("POST", route.path, { ...route.send(metric, limits.agentData + 1) });
    expect(await route.refusalMessage(response, 413)).toBe(tooManyData);
    await expectNothingStored(metric);
  });

  it("counts data, not lines: fields of a few lines pass the limit", async () => {
    const body = "wide,host=vm1 a=1,b=2,c=3 1700000000000000000\nwide,host=vm2 a=1,b=2,c=3 1700000000000000000\n";
    const response = await request("POST", "/write", { body, headers: { "content-type": "text/plain" } });
    expect(await influxV1Route.refusalMessage(response, 413)).toBe(tooManyData);
    await expectNothingStored("wide.a");
  });
});

describe("MAX_DECOMPRESSED_BYTES", () => {
  /** 1 MiB of zeros, gzipped into a body well within MAX_BODY_BYTES. */
  const gzipBomb = gzip(new Uint8Array(1_048_576));

  it.each(routeCases)("refuses a gzip bomb with 413 at $route.name", async ({ route }) => {
    const compressed = await gzipBomb;
    expect(compressed.byteLength).toBeLessThan(limits.bodyBytes);
    const response = await request("POST", route.path, route.sendGzip(compressed));
    expect(await route.refusalMessage(response, 413)).toBe(tooLargeDecompressed);
  });

  it("refuses a snappy bomb with 413 at /api/v1/write", async () => {
    const compressed = SnappyJS.compress(new Uint8Array(80_000));
    expect(compressed.byteLength).toBeLessThan(limits.bodyBytes);
    const response = await request("POST", remoteWriteRoute.path, {
      body: compressed,
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    });
    expect(await remoteWriteRoute.refusalMessage(response, 413)).toMatch(/^The body is too large once decompressed: /);
  });

  /** Line protocol of `bytes` bytes: comment lines, which hold no data. */
  const comments = (bytes: number) => `${`#${"x".repeat(62)}\n`.repeat(bytes / 64)}${"\n".repeat(bytes % 64)}`;

  it.each([influxV1Route, influxV2Route])(
    "takes a body of exactly the limit decompressed at $name, and refuses one a byte over",
    async (route) => {
      const fits = await request("POST", route.path, route.sendGzip(await gzip(comments(limits.decompressedBytes))));
      expect(fits.status).toBe(204);
      const over = await request(
        "POST",
        route.path,
        route.sendGzip(await gzip(comments(limits.decompressedBytes + 1))),
      );
      expect(await route.refusalMessage(over, 413)).toBe(tooLargeDecompressed);
    },
  );
});

describe("MAX_BODY_BYTES", () => {
  it.each(routeCases)("refuses a body over it with 413 at $route.name, accepting nothing", async ({ route, index }) => {
    const metric = metricOf("big", index);
    const { headers } = route.send(metric, 1);
    const response = await request("POST", route.path, { body: new Uint8Array(limits.bodyBytes + 1), headers });
    expect(await route.refusalMessage(response, 413)).toMatch(
      /^The body is larger than MAX_BODY_BYTES \(4096 bytes\); (compress it|send fewer)/,
    );
    await expectNothingStored(metric);
  });

  it("tells a line-protocol client to gzip its body or send smaller batches", async () => {
    const response = await request("POST", "/write", {
      body: new Uint8Array(limits.bodyBytes + 1),
      headers: { "content-type": "text/plain" },
    });
    expect(await influxV1Route.refusalMessage(response, 413)).toBe(
      `The body is larger than MAX_BODY_BYTES (${limits.bodyBytes} bytes); compress it (Content-Encoding: gzip; ` +
        'Telegraf: content_encoding = "gzip") or send smaller batches (Telegraf: metric_batch_size).',
    );
  });
});
