import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AttemptReport } from "../../src/worker/vocabulary/delivery";
import { expectProblem, prefixes, request, sendJson, validationProblem } from "./support/http";
import {
  addObserver,
  declareMetric,
  listObservers,
  noDatagramsSentYet,
  noDeliveriesYet,
  observersPath,
  plainHttp,
  unknownObserverProblem,
} from "./support/metrics";
import { verifiesSignature } from "./support/webhooks";

const detail = "The request has problems; see errors.";

let metrics = 0;
/** A metric name no other test of the file uses. */
const freshMetric = (prefix: string) => `${prefix}-${++metrics}`;

/** A new metric with one HTTP observer; returns the observer as registered and its path. */
async function observed(metric: string, prefix = "") {
  await declareMetric(metric, prefix);
  const observer = await addObserver(metric, { callbackUrl: `http://${metric}.example/` }, prefix);
  return { observer, path: `${observersPath(metric, prefix)}/${observer.id}` };
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("PATCH /metrics/:id/observers/:oid", () => {
  it.each(prefixes)("pauses and resumes an observer under %o", async (prefix) => {
    const metric = `patched${prefix.replace("/", "-")}`;
    const { observer, path } = await observed(metric, prefix);

    const paused = await sendJson("PATCH", path, { state: "paused" });
    expect(paused.status).toBe(200);
    expect(await readJson(paused)).toEqual({ ...observer, ...plainHttp, state: "paused", status: noDeliveriesYet });
    expect(await listObservers(metric, prefix)).toEqual([{ ...observer, state: "paused" }]);

    const resumed = await sendJson("PATCH", path, { state: "active" });
    expect(await readJson(resumed)).toEqual({ ...observer, ...plainHttp, state: "active", status: noDeliveriesYet });
    expect(await (await request("GET", path)).json()).toMatchObject({ state: "active" });
  });

  it.each<[string, unknown, { path: string; message: string }[]]>([
    ["an unknown field", { state: "paused", color: "red" }, [{ path: "/color", message: "Unknown field." }]],
    ["an empty object", {}, [{ path: "", message: "Name at least one of state, secret and headers." }]],
    [
      "a state the service sets",
      { state: "disabled" },
      [{ path: "/state", message: 'The state must be "active" or "paused".' }],
    ],
    [
      "a state of another case",
      { state: "PAUSED" },
      [{ path: "/state", message: 'The state must be "active" or "paused"; did you mean "paused"?' }],
    ],
    [
      "a secret too short",
      { secret: "short" },
      [{ path: "/secret", message: 'The secret must be at least 16 characters long (or "generate").' }],
    ],
    [
      "a reserved header",
      { headers: { "webhook-id": "x" } },
      [{ path: "/headers/webhook-id", message: "This header is set by the service and may not be given." }],
    ],
  ])("rejects %s and changes nothing", async (_, body, errors) => {
    const { observer, path } = await observed(freshMetric("rejected"));
    await expectProblem(await sendJson("PATCH", path, body), 400, validationProblem(detail, errors));
    expect(await (await request("GET", path)).json()).toMatchObject({ state: observer.state });
  });

  it("rejects a request without a body", async () => {
    const { path } = await observed("patch-without-body");
    const response = await request("PATCH", path, { headers: { "content-type": "application/json" } });
    await expectProblem(response, 400, {
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is not valid JSON: Unexpected end of JSON input",
    });
  });

  it("answers 404 for an observer that does not exist", async () => {
    await declareMetric("patch-unknown");
    const response = await sendJson("PATCH", `${observersPath("patch-unknown")}/nope`, { state: "paused" });
    await expectProblem(response, 404, unknownObserverProblem("patch-unknown", "nope"));
  });

  it("shows a generated secret once, in its answer, and a secret of the observer's own never", async () => {
    const { path } = await observed("patch-secret");
    const generated = await readJson(await sendJson("PATCH", path, { secret: "generate" }));
    expect(generated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const own = await readJson(await sendJson("PATCH", path, { secret: "my-own-secret-0123456789" }));
    expect(own).not.toHaveProperty("secret");
    const shown = await (await request("GET", path)).text();
    expect(shown).not.toContain(String(generated.secret));
    expect(shown).not.toContain("my-own-secret");
  });
});

describe("PATCH /metrics/:id/observers/:oid and the deliveries", () => {
  beforeEach(() => {
    // Far ahead of the real clock: an alarm runs only when the test runs it.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2031, 0, 1));
  });

  /** The headers and body the observer's receiver is sent of data held for it, once its metric's object delivers them. */
  async function delivered(metric: string, observerId: string) {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const stub = env.METRIC.getByName(metric);
    await stub.recordBatch({
      attempts: [],
      owed: [{ rows: [["d1", 1, 1, "vm1"]], observers: [{ id: observerId, attempts: 0 }] }],
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [, init] = fetch.mock.calls[0]!;
    fetch.mockRestore();
    return { headers: init?.headers as Record<string, string>, body: String(init?.body) };
  }

  it("stops signing the deliveries for a secret of null; they keep their webhook-id", async () => {
    const metric = "patch-unsigned";
    await declareMetric(metric);
    const observer = await addObserver(metric, {
      callbackUrl: "http://patch-unsigned.example/",
      secret: "an-own-secret-0123456789",
    });
    const path = `${observersPath(metric)}/${observer.id}`;
    expect((await delivered(metric, String(observer.id))).headers).toHaveProperty("webhook-signature");
    expect((await sendJson("PATCH", path, { secret: "another-own-secret-0123456789" })).status).toBe(200);

    const removed = await sendJson("PATCH", path, { secret: null });
    expect(removed.status).toBe(200);
    expect(await readJson(removed)).toEqual({
      ...observer,
      ...plainHttp,
      status: expect.objectContaining({ delivered: 1 }),
    });

    const { headers } = await delivered(metric, String(observer.id));
    expect(headers["webhook-id"]).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(headers).not.toHaveProperty("webhook-signature");
    expect(headers).not.toHaveProperty("webhook-timestamp");
  });

  it("signs the deliveries with a generated secret, shown in the PATCH that asked for it only", async () => {
    const { observer, path } = await observed("patch-generated");
    const changed = await readJson(await sendJson("PATCH", path, { secret: "generate" }));
    expect(changed).toEqual({
      ...observer,
      signed: true,
      headerNames: [],
      status: noDeliveriesYet,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const secret = String(changed.secret);

    const paused = await readJson(await sendJson("PATCH", path, { state: "paused" }));
    expect(paused).not.toHaveProperty("secret");
    expect(await readJson(await sendJson("PATCH", path, { state: "active" }))).not.toHaveProperty("secret");
    for (const shown of [await request("GET", path), await request("GET", observersPath("patch-generated"))]) {
      expect(await shown.text()).not.toContain(secret);
    }

    const { headers, body } = await delivered("patch-generated", String(observer.id));
    const signed = { id: headers["webhook-id"]!, timestamp: headers["webhook-timestamp"]!, body };
    const key = Uint8Array.from(atob(secret.slice("whsec_".length)), (character) => character.charCodeAt(0));
    expect(await verifiesSignature(headers["webhook-signature"]!, signed, key)).toBe(true);
  });

  it.each(["tcp", "udp"])("refuses headers for a %s observer at /headers, and changes nothing", async (protocol) => {
    const metric = freshMetric(`${protocol}-headers`);
    await declareMetric(metric);
    const observer = await addObserver(metric, {
      format: "graphite",
      protocol,
      observerHost: "10.0.0.1",
      observerPort: 2003,
    });
    const path = `${observersPath(metric)}/${observer.id}`;

    const response = await sendJson("PATCH", path, { state: "paused", headers: { authorization: "Bearer token" } });
    await expectProblem(
      response,
      400,
      validationProblem(detail, [{ path: "/headers", message: "Headers only apply to HTTP observers." }]),
    );
    const status = protocol === "udp" ? noDatagramsSentYet : noDeliveriesYet;
    expect(await (await request("GET", path)).json()).toEqual({ ...observer, status });
  });
});

describe("GET /metrics/:id/observers/:oid/attempts", () => {
  function attempts(observerId: string, count: number): AttemptReport[] {
    return Array.from({ length: count }, (_, index) => ({
      observerId,
      ok: index % 2 === 0,
      latencyMs: 7,
      data: 1,
      webhookId: `msg_${index + 1}`,
      attempt: 1,
      at: Date.UTC(2026, 0, 1) + index * 1_000,
    }));
  }

  it("shows the latest 50 attempts, newest first, unless told how many", async () => {
    const { observer, path } = await observed("attempted");
    expect(await (await request("GET", `${path}/attempts`)).json()).toEqual([]);
    await env.METRIC.getByName("attempted").recordBatch({ attempts: attempts(String(observer.id), 60), owed: [] });

    const latest = (await (await request("GET", `${path}/attempts`)).json()) as { webhookId: string }[];
    expect(latest.map((entry) => entry.webhookId)).toEqual(
      Array.from({ length: 50 }, (_, index) => `msg_${60 - index}`),
    );
    expect(latest[0]).toEqual({
      at: "2026-01-01T00:00:59.000Z",
      attempt: 1,
      ok: false,
      latencyMs: 7,
      data: 1,
      webhookId: "msg_60",
    });
    expect(await (await request("GET", `/v1${path}/attempts?limit=60`)).json()).toHaveLength(60);
    expect(await (await request("GET", `${path}/attempts?limit=1000`)).json()).toHaveLength(60);
    expect(await (await request("GET", `${path}/attempts?limit=2`)).json()).toMatchObject([
      { webhookId: "msg_60" },
      { webhookId: "msg_59" },
    ]);
  });

  it.each([
    ["0", "The limit must be at least 1."],
    ["1001", "The limit must be at most 1000."],
    ["2.5", "The limit must be a whole number."],
    ["many", "The limit must be a number."],
  ])("rejects the limit %s", async (limit, message) => {
    const { path } = await observed(freshMetric("limited"));
    await expectProblem(
      await request("GET", `${path}/attempts?limit=${limit}`),
      400,
      validationProblem("The query is not valid.", [{ path: "/limit", message }]),
    );
  });

  it("answers 404 for an observer that does not exist", async () => {
    await declareMetric("attempts-unknown");
    await expectProblem(
      await request("GET", `${observersPath("attempts-unknown")}/nope/attempts`),
      404,
      unknownObserverProblem("attempts-unknown", "nope"),
    );
  });
});

describe("POST /metrics/:id/observers/:oid/replay", () => {
  it("answers 202 with no data when nothing is dead, with or without a body", async () => {
    const { path } = await observed("nothing-dead");
    const bodies: RequestInit[] = [
      {},
      { body: "{}", headers: { "content-type": "application/json" } },
      { body: JSON.stringify({ since: "2026-01-01T00:00:00Z" }), headers: { "content-type": "application/json" } },
      {
        body: JSON.stringify({ since: "2026-01-01T00:00:00+02:00", until: "2026-01-02T00:00:00.5Z" }),
        headers: { "content-type": "application/json" },
      },
    ];
    for (const init of bodies) {
      const response = await request("POST", `${path}/replay`, init);
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ data: 0 });
    }
  });

  it.each<[string, unknown, { path: string; message: string }[]]>([
    [
      "a since after the until",
      { since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" },
      [{ path: "/since", message: "The since must not be after the until." }],
    ],
    [
      "a date without a time",
      { since: "2026-01-01" },
      [{ path: "/since", message: "The since must be an ISO 8601 date and time, e.g. 2026-01-31T12:00:00Z." }],
    ],
    [
      "a time that is not a date",
      { until: "yesterday" },
      [{ path: "/until", message: "The until must be an ISO 8601 date and time, e.g. 2026-01-31T12:00:00Z." }],
    ],
    ["an unknown field", { from: "2026-01-01T00:00:00Z" }, [{ path: "/from", message: "Unknown field." }]],
  ])("rejects %s", async (_, body, errors) => {
    const { path } = await observed(freshMetric("replay"));
    await expectProblem(await sendJson("POST", `${path}/replay`, body), 400, validationProblem(detail, errors));
  });

  it("answers 404 for an observer that does not exist", async () => {
    await declareMetric("replay-unknown");
    await expectProblem(
      await request("POST", `${observersPath("replay-unknown")}/nope/replay`),
      404,
      unknownObserverProblem("replay-unknown", "nope"),
    );
  });

  it("puts back the dead data accepted within the range, and answers how many", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const accepted = Date.UTC(2031, 0, 1);
    vi.setSystemTime(accepted);
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 500 }));
    const { observer, path } = await observed("dead-data");
    const stub = env.METRIC.getByName("dead-data");
    const observerId = String(observer.id);
    await stub.recordBatch({
      attempts: [],
      owed: [
        {
          rows: [
            ["d1", 1, 1, "vm1"],
            ["d2", 2, 2, "vm1"],
          ],
          observers: [{ id: observerId, attempts: 0 }],
        },
      ],
    });
    await runDurableObjectAlarm(stub);
    // Tried again once the whole default schedule (114,155 seconds) has passed since the first failure.
    vi.setSystemTime(accepted + 114_155_000);
    await runDurableObjectAlarm(stub);
    expect(await (await request("GET", path)).json()).toMatchObject({ status: { dead: 2, backlog: 0 } });

    const outside = { since: "2031-01-01T00:00:00.001Z" };
    expect(await (await sendJson("POST", `${path}/replay`, outside)).json()).toEqual({ data: 0 });
    const range = { since: "2031-01-01T00:00:00Z", until: "2031-01-01T01:00:00+01:00" };
    const replayed = await sendJson("POST", `${path}/replay`, range);
    expect({ status: replayed.status, body: await replayed.json() }).toEqual({ status: 202, body: { data: 2 } });
    expect(await (await request("GET", path)).json()).toMatchObject({ status: { dead: 0, backlog: 2 } });
  });
});
