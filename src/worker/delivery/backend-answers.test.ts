import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectProblem, request, sendJson, validationProblem } from "../../../test/api/support/http";
import { consumeGroups } from "../../../test/api/support/intake-batches";
import { addObserver, declareMetric } from "../../../test/api/support/metrics";
import type { Datum } from "../vocabulary/datum";

/** The test's clock, far ahead of the real one, so that no backlog alarm goes off by itself. */
const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

const consume = (data: Datum[]) => consumeGroups([data]);

const datum = (metric: string, value: number, host = "vm1"): Datum => ({
  id: `${metric}-${value}-${host}`,
  metric,
  timestamp: 1_000 * value,
  value,
  resourceId: host,
  labels: { pairs: [["host", host]] },
});

/** A metric with one observer of `format` at http://<metric>.example/; answers the observer's path. */
async function observed(metric: string, format: string): Promise<string> {
  await declareMetric(metric);
  const observer = await addObserver(metric, { format, callbackUrl: `http://${metric}.example/` });
  return `/metrics/${metric}/observers/${observer.id}`;
}

const status = async (path: string) => ((await (await request("GET", path)).json()) as { status: object }).status;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(t0);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("answers of metrics backends", () => {
  it.each(["INFLUXDB", "PROMETHEUS", "OTLP", "OTLP/JSON"])(
    "makes data %s refuses with 400 dead at once, with the answer as the reason, and goes on",
    async (format) => {
      const metric = `refused-${format.replace("/", "-").toLowerCase()}`;
      const path = await observed(metric, format);
      const fetch = vi
        .spyOn(globalThis, "fetch")
        .mockResolvedValueOnce(new Response("field type conflict: value is integer", { status: 400 }))
        .mockResolvedValue(new Response(null, { status: 204 }));

      await consume([datum(metric, 1), datum(metric, 2)]);
      expect(await status(path)).toMatchObject({
        delivered: 0,
        dead: 2,
        backlog: 0,
        nextAttemptAt: null,
        lastError: "HTTP 400 from the observer: field type conflict: value is integer",
      });
      await consume([datum(metric, 3)]);

      expect(fetch).toHaveBeenCalledTimes(2);
      expect(await status(path)).toMatchObject({ delivered: 1, dead: 2, backlog: 0 });
      const replayed = await request("POST", `${path}/replay`);
      expect(await replayed.json()).toEqual({ data: 2 });
    },
  );

  it("keeps retrying data a webhook format's observer answers 400 to", async () => {
    const path = await observed("refused-tower", "TOWER/JSON");
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("no", { status: 400 }));

    await consume([datum("refused-tower", 1)]);

    expect(await status(path)).toMatchObject({ dead: 0, backlog: 1, lastError: "HTTP 400 from the observer" });
  });

  it("sends a payload answered 413 again in halves, at once, and makes a single datum still refused dead", async () => {
    const path = await observed("too-large", "INFLUXDB");
    const bodies: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_, init) => {
      const body = String(init?.body);
      bodies.push(body);
      const lines = body.trim().split("\n");
      return new Response(null, { status: lines.length > 1 || body.includes("host=big") ? 413 : 204 });
    });

    await consume([datum("too-large", 1), datum("too-large", 2), datum("too-large", 3, "big")]);

    expect(bodies.map((body) => body.trim().split("\n").length)).toEqual([3, 2, 1, 1, 1]);
    expect(await status(path)).toMatchObject({ delivered: 0, dead: 3, backlog: 0 });
  });

  it("waits as long as a backend's 429 asks before it tries again", async () => {
    const path = await observed("throttled", "PROMETHEUS");
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(null, { status: 429, headers: { "retry-after": "120" } }),
    );

    await consume([datum("throttled", 1)]);

    expect(await status(path)).toMatchObject({
      backlog: 1,
      dead: 0,
      nextAttemptAt: new Date(t0 + 120_000).toISOString(),
    });
  });

  it("counts the data points an OTLP receiver rejected, in the status and the attempt log, and sends them not again", async () => {
    const path = await observed("partial", "OTLP/JSON");
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      Response.json({ partialSuccess: { rejectedDataPoints: "2", errorMessage: "bad names" } }),
    );

    await consume([datum("partial", 1), datum("partial", 2), datum("partial", 3)]);

    expect(await status(path)).toMatchObject({ delivered: 3, rejected: 2, backlog: 0 });
    const [attempt] = (await (await request("GET", `${path}/attempts`)).json()) as object[];
    expect(attempt).toMatchObject({ ok: true, data: 3, rejected: 2 });
  });

  it("makes a backlogged chunk a backend refuses dead, and delivers the next one", async () => {
    const path = await observed("backlog-refused", "PROMETHEUS");
    // Each answer made where it is read: the backlog's object cannot read a body made in the test's context.
    const answers: { body: string | null; status: number }[] = [
      { body: null, status: 503 },
      { body: "out of order sample", status: 400 },
    ];
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      const { body, status } = answers.shift() ?? { body: null, status: 204 };
      return new Response(body, { status });
    });
    await consume([datum("backlog-refused", 1)]);
    // Held behind the first datum's chunk, in a chunk of its own.
    await consume([datum("backlog-refused", 2)]);
    expect(await status(path)).toMatchObject({ backlog: 2 });

    vi.setSystemTime(t0 + 60_000);
    await runDurableObjectAlarm(env.METRIC.getByName("backlog-refused"));

    expect(fetch).toHaveBeenCalledTimes(3);
    expect(await status(path)).toMatchObject({
      delivered: 1,
      dead: 1,
      backlog: 0,
      lastError: "HTTP 400 from the observer: out of order sample",
    });
  });
});

describe("formats of metrics backends", () => {
  it.each(["PROMETHEUS", "OTLP", "OTLP/JSON"])("are sent over HTTP only: %s over TCP is refused", async (format) => {
    const body = { format, protocol: "TCP", observerHost: "127.0.0.1", observerPort: 9090 };
    await expectProblem(
      await sendJson("POST", "/observers", { ...body, match: ["up"] }),
      400,
      validationProblem("The request has problems; see errors.", [
        { path: "/protocol", message: `The format ${format} is a metrics backend's, sent over HTTP only.` },
      ]),
    );
    await expectProblem(
      await sendJson("POST", "/metrics/backend-over-tcp/observers", body),
      400,
      validationProblem("The request has problems; see errors.", [
        { path: "/protocol", message: `The format ${format} is a metrics backend's, sent over HTTP only.` },
      ]),
    );
  });

  it("sends remote write with its headers, and InfluxDB data with their labels as tags", async () => {
    await observed("headers-prometheus", "PROMETHEUS");
    await observed("headers-influx", "INFLUXDB");
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));

    await consume([datum("headers-prometheus", 1), datum("headers-influx", 2)]);

    const byUrl = new Map(fetch.mock.calls.map(([url, init]) => [String(url), init!]));
    const remoteWrite = new Headers(byUrl.get("http://headers-prometheus.example/")!.headers);
    expect(
      Object.fromEntries(
        ["content-type", "content-encoding", "x-prometheus-remote-write-version"].map((name) => [
          name,
          remoteWrite.get(name),
        ]),
      ),
    ).toEqual({
      "content-type": "application/x-protobuf",
      "content-encoding": "snappy",
      "x-prometheus-remote-write-version": "0.1.0",
    });
    expect(remoteWrite.get("user-agent")).toMatch(/^tower-edge\//);
    expect(byUrl.get("http://headers-influx.example/")!.body).toBe("headers-influx,host=vm1 value=2 2000000000\n");
  });
});
