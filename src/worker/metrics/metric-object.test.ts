import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { request, sendJson } from "../../../test/api/support/http";
import { addObserver, declareMetric, metricPath, observersPath } from "../../../test/api/support/metrics";
import { utf8, verifiesSignature } from "../../../test/api/support/webhooks";
import { readIntakeMessage } from "../intake/queue-message-bytes";
import { shardOfKey } from "../summary/shard-key";
import { type SummaryShard, summaryShardStub } from "../summary/summary-shard";
import type { DatumRow } from "../vocabulary/datum";
import type { AttemptReport, BatchReport, DeliveryStatus } from "../vocabulary/delivery";
import { rowsJson } from "../vocabulary/row-json";
import { AttemptLog } from "./attempt-log";
import { BacklogStore } from "./backlog-store";
import type { BatchIntake } from "./metric-object";
import { minuteOf } from "./recent-data";

/** The metric's Durable Object. */
function metricObject(name: string) {
  return env.METRIC.getByName(name);
}

async function status(metric: string, observerId: unknown): Promise<DeliveryStatus> {
  const response = await request("GET", `${observersPath(metric)}/${observerId}`);
  expect(response.status).toBe(200);
  return (await response.json<{ status: DeliveryStatus }>()).status;
}

const secret = "0123456789abcdef-secret";
const rotated = "fedcba9876543210-rotated";
/** The test's clock, far ahead of the real one: an alarm runs only when a test runs it. */
const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);
const t1 = t0 + 60_000;
const hour = 3_600_000;
const iso = (epochMs: number) => new Date(epochMs).toISOString();
/** PLAN_LEASE_MS as the tests run. */
const leaseMs = 2_000;

function setClock(epochMs: number): void {
  vi.setSystemTime(epochMs);
}

const rows = (prefix: string, count: number): DatumRow[] =>
  Array.from({ length: count }, (_, index) => [`${prefix}${index + 1}`, 1_000 * (index + 1), index + 1, "vm1"]);

function attempt(observerId: string, changes: Partial<AttemptReport>): AttemptReport {
  return { observerId, ok: true, latencyMs: 5, data: 1, webhookId: "msg_1", attempt: 1, at: t0, ...changes };
}

/** A batch whose delivery of `owedRows` to the observer failed at `at`, under `webhookId`. */
function failedBatch(observerId: string, owedRows: DatumRow[], webhookId: string, at = t0): BatchReport {
  const failure = {
    ok: false,
    httpStatus: 500,
    error: "HTTP 500 from the observer",
    data: owedRows.length,
    webhookId,
    at,
  };
  return {
    attempts: [attempt(observerId, failure)],
    owed: [{ rows: owedRows, observers: [{ id: observerId, webhookId, attempts: 1 }] }],
  };
}

/** Data the batch did not try for the observer (it was held). */
const heldBatch = (observerId: string, owedRows: DatumRow[], webhookId?: string): BatchReport => ({
  attempts: [],
  owed: [{ rows: owedRows, observers: [{ id: observerId, attempts: 0, ...(webhookId ? { webhookId } : {}) }] }],
});

async function httpObserver(metric: string, body: Record<string, unknown> = {}): Promise<string> {
  await declareMetric(metric);
  const created = await addObserver(metric, {
    format: "TOWER/JSON",
    callbackUrl: `http://${metric}.example/`,
    ...body,
  });
  return String(created.id);
}

/** What the observer's receiver was sent: each request's headers and body, in order. */
function sentRequests(fetch: MockInstance<typeof globalThis.fetch>) {
  return fetch.mock.calls.map(([, init]) => ({
    headers: init?.headers as Record<string, string>,
    body: String(init?.body),
  }));
}

const towerJson = (metric: string, data: DatumRow[]) =>
  `[${data
    .map(([, timestamp, value, resourceId]) => JSON.stringify({ resourceId, metric, value, timestamp }))
    .join(",")}]`;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  setClock(t0);
  vi.spyOn(Math, "random").mockReturnValue(0.5);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("ensureMetric", () => {
  it("creates the metric once and leaves an existing one as it is", async () => {
    await metricObject("ensured").ensureMetric("ensured");
    expect(await (await request("GET", metricPath("ensured"))).json()).toMatchObject({ id: "ensured", observers: 0 });

    expect((await sendJson("PUT", metricPath("ensured"), { unit: "ms" })).status).toBe(200);
    await addObserver("ensured", { callbackUrl: "http://ensured.example/" });
    await metricObject("ensured").ensureMetric("ensured");
    const metric = await (await request("GET", metricPath("ensured"))).json();
    expect(metric).toMatchObject({ id: "ensured", unit: "ms", observers: 1 });
  });
});

describe("deliveryPlan", () => {
  it("creates an unknown metric and plans nothing", async () => {
    expect(await metricObject("fresh").deliveryPlan("fresh")).toEqual({
      observers: [],
      selectors: [],
      ruleReaders: [],
      figures: expect.objectContaining({ name: "fresh", observers: 0, dataAccepted: 0 }),
    });
    expect((await request("GET", metricPath("fresh"))).status).toBe(200);
  });

  it("gives every observer with its secrets and headers, in registration order", async () => {
    await declareMetric("targets");
    const headers = { authorization: "Bearer receiver-token" };
    const http = await addObserver("targets", {
      format: "tower/json",
      callbackUrl: "http://t.example/",
      secret,
      headers,
    });
    const tcp = await addObserver("targets", {
      format: "graphite",
      protocol: "tcp",
      observerHost: "10.0.0.1",
      observerPort: 2003,
    });

    expect((await metricObject("targets").deliveryPlan("targets")).observers).toEqual([
      { target: { ...http, secrets: [secret], headers }, held: false },
      { target: { ...tcp, secrets: [], headers: {} }, held: false },
    ]);
  });

  it("signs with the secret of the latest registration and, until the rotation ends, the one it replaced", async () => {
    await httpObserver("rotated", { secret });
    const again = await sendJson("POST", observersPath("rotated"), {
      format: "TOWER/JSON",
      callbackUrl: "http://rotated.example/",
      secret: rotated,
    });
    expect(again.status).toBe(200);

    const secretsAt = async () => (await metricObject("rotated").deliveryPlan("rotated")).observers[0]?.target.secrets;
    expect(await secretsAt()).toEqual([rotated, secret]);
    setClock(t0 + 24 * hour);
    expect(await secretsAt()).toEqual([rotated]);
  });

  it("holds an observer that is paused, or whose backlog holds older data", async () => {
    const paused = await httpObserver("held");
    const behind = String((await addObserver("held", { callbackUrl: "http://behind.example/" })).id);
    const free = String((await addObserver("held", { callbackUrl: "http://free.example/" })).id);
    const stub = metricObject("held");
    await stub.changeObserver(paused, { state: "paused" });
    await stub.recordBatch(failedBatch(behind, rows("a", 1), "msg_behind"));

    const plan = (await stub.deliveryPlan("held")).observers;
    expect(plan.map(({ target, held }) => [target.id, held])).toEqual([
      [paused, true],
      [behind, true],
      [free, false],
    ]);
  });

  it("tells how long each observer's latest attempt took when it succeeded", async () => {
    const fast = await httpObserver("answered");
    const slow = String((await addObserver("answered", { callbackUrl: "http://slow.example/" })).id);
    const failing = String((await addObserver("answered", { callbackUrl: "http://failing.example/" })).id);
    const recovered = String((await addObserver("answered", { callbackUrl: "http://recovered.example/" })).id);
    const fresh = String((await addObserver("answered", { callbackUrl: "http://fresh.example/" })).id);
    const stub = metricObject("answered");
    await stub.recordBatch({
      attempts: [
        attempt(fast, { latencyMs: 3 }),
        attempt(slow, { latencyMs: 4_000 }),
        attempt(failing, { ok: false, error: "HTTP 503 from the observer", latencyMs: 5 }),
        attempt(recovered, { ok: false, deferred: true, error: "not answered within the batch's budget" }),
        attempt(recovered, { latencyMs: 7 }),
      ],
      owed: [],
    });

    const plan = (await stub.deliveryPlan("answered")).observers;
    expect(plan.map(({ target, answeredInMs }) => [target.id, answeredInMs])).toEqual([
      [fast, 3],
      [slow, 4_000],
      [failing, undefined],
      [recovered, 7],
      [fresh, undefined],
    ]);
  });

  describe("the batches' turns at direct deliveries", () => {
    const batch: BatchIntake = { latest: rows("t", 1), counts: [[minuteOf(t0), 1]] };
    const settled = <T>(promise: Promise<T>, ms: number) =>
      Promise.race([promise, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), ms))]);

    it("plans a batch only once the batch before recorded its deliveries, so that it sees their outcome", async () => {
      const observerId = await httpObserver("turns");
      const stub = metricObject("turns");
      const first = await stub.deliveryPlan("turns", batch);
      expect(first.turn).toBeDefined();

      const second = stub.deliveryPlan("turns", batch);
      expect(await settled(second, 100)).toBe("waiting");
      await stub.recordBatch({ ...failedBatch(observerId, rows("a", 1), "msg_first"), turn: first.turn! });

      expect(await settled(second, 1_000)).toEqual({
        observers: [expect.objectContaining({ held: true })],
        selectors: [],
        ruleReaders: [],
        figures: expect.objectContaining({ name: "turns" }),
      });
    });

    it("gives no turn, and makes no batch wait, when every observer is held or there is none", async () => {
      const paused = await httpObserver("no-turn");
      const stub = metricObject("no-turn");
      await stub.changeObserver(paused, { state: "paused" });

      const heldPlan = {
        observers: [expect.objectContaining({ held: true })],
        selectors: [],
        ruleReaders: [],
        figures: expect.objectContaining({ name: "no-turn" }),
      };
      expect(await settled(stub.deliveryPlan("no-turn", batch), 1_000)).toEqual(heldPlan);
      expect(await settled(stub.deliveryPlan("no-turn", batch), 1_000)).toEqual(heldPlan);
      expect(await settled(metricObject("unobserved").deliveryPlan("unobserved", batch), 1_000)).toEqual({
        observers: [],
        selectors: [],
        ruleReaders: [],
        figures: expect.objectContaining({ name: "unobserved" }),
      });
    });
  });
});

describe("plan leases", () => {
  const entry = { id: "leased-selector", match: ['{__name__=~"leased.*"}'] };
  /** How long `work` took, in ms of the isolate's clock (which the tests' fake date leaves alone). */
  async function timed(work: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    await work();
    return performance.now() - started;
  }

  /** A metric's object that a selector observer follows. */
  async function followed(metric: string) {
    const stub = metricObject(metric);
    await stub.ensureMetric(metric);
    expect(await stub.keepSelectorObserver(entry)).toBe(0);
    return stub;
  }

  it("leases a plan that names selector observers only, and none while an observer or a rule reads the metric", async () => {
    expect((await metricObject("leased.nothing").deliveryPlan("leased.nothing")).leaseMs).toBeUndefined();
    const stub = await followed("leased.plan");
    expect(await stub.deliveryPlan("leased.plan")).toMatchObject({ selectors: [entry], leaseMs });

    await stub.addRuleReader("leased.plan", "leased.rule");
    expect((await stub.deliveryPlan("leased.plan")).leaseMs).toBeUndefined();
    await stub.removeRuleReader("leased.rule");
    expect((await stub.deliveryPlan("leased.plan")).leaseMs).toBe(leaseMs);

    const observerId = await httpObserver("leased.observed");
    await followed("leased.observed");
    await metricObject("leased.observed").changeObserver(observerId, { state: "paused" });
    expect((await metricObject("leased.observed").deliveryPlan("leased.observed")).leaseMs).toBeUndefined();
  });

  it.each([
    ["an observer", (metric: string) => addObserver(metric, { callbackUrl: "http://leased.example/" })],
    ["a rule reader", (metric: string) => metricObject(metric).addRuleReader(metric, `${metric}.rule`)],
  ])(
    "answers the registration of %s at once, the lease granted before revoked by its shard's plan epoch, and leases nothing after",
    async (what, register) => {
      const metric = `leased.${what.replaceAll(" ", "-")}`;
      const stub = await followed(metric);
      await stub.deliveryPlan(metric);
      const unleased = `${metric}.unleased`;
      await followed(unleased);
      const epochOf = (name: string) => summaryShardStub(env, shardOfKey(name)).planEpoch();
      const before = await epochOf(metric);

      expect(await timed(() => register(metric))).toBeLessThan(leaseMs / 2);
      expect(await epochOf(metric)).toBe(before + 1);
      expect((await stub.deliveryPlan(metric)).leaseMs).toBeUndefined();

      // No lease out: nothing to revoke.
      const unleasedBefore = await epochOf(unleased);
      await register(unleased);
      expect(await epochOf(unleased)).toBe(unleasedBefore);
    },
  );

  it("waits for the lease granted before to end when its shard's plan epoch cannot be advanced", async () => {
    const metric = "leased.unrevoked";
    const stub = await followed(metric);
    await stub.deliveryPlan(metric);
    const unavailable = () => Promise.reject(new Error("summary shard unavailable"));
    vi.spyOn(env.SUMMARY_SHARD, "get").mockImplementation(
      () => ({ revokeLeasedPlans: unavailable, apply: unavailable }) as unknown as DurableObjectStub<SummaryShard>,
    );
    vi.spyOn(console, "error").mockImplementation(() => undefined);

    const took = await timed(() => addObserver(metric, { callbackUrl: "http://leased.example/" }));
    expect(took).toBeGreaterThan(leaseMs - 500);
    expect((await stub.deliveryPlan(metric)).leaseMs).toBeUndefined();
  });

  it("tells a selector observer's registration how long the plans leased without it last", async () => {
    const stub = await followed("leased.told");
    await stub.deliveryPlan("leased.told");
    const remaining = await stub.keepSelectorObserver({ ...entry, id: "another-selector" });
    expect(remaining).toBeGreaterThan(leaseMs - 500);
    expect(remaining).toBeLessThanOrEqual(leaseMs);
    expect(await stub.deliveryPlan("leased.told")).toMatchObject({
      selectors: [entry, { ...entry, id: "another-selector" }],
      leaseMs,
    });
  });

  it("records data consumed under a lease in the minutes they were consumed, and answers the metric's figures", async () => {
    const stub = metricObject("leased.intake");
    const figures = await stub.recordIntake("leased.intake", {
      latest: rows("i", 3),
      counts: [
        [minuteOf(t0 - 60_000), 5],
        [minuteOf(t0), 2],
      ],
    });
    expect(figures).toMatchObject({ name: "leased.intake", dataAccepted: 7, latestDatumAt: 3_000 });
    expect(figures.acceptedPerMinute.slice(-2)).toEqual([5, 2]);
    expect((await stub.recentData(10))?.map(([id]) => id)).toEqual(["i3", "i2", "i1"]);
  });
});

describe("recordBatch", () => {
  it("adds delivered data and failed attempts to the observer's status", async () => {
    const observerId = await httpObserver("status");
    const stub = metricObject("status");

    await stub.recordBatch({ attempts: [attempt(observerId, { data: 3, at: t0 })], owed: [] });
    expect(await status("status", observerId)).toMatchObject({
      delivered: 3,
      failed: 0,
      lastSuccessAt: iso(t0),
      lastFailureAt: null,
      lastError: null,
    });

    await stub.recordBatch({
      attempts: [
        attempt(observerId, { ok: false, data: 2, at: t0, error: "HTTP 503" }),
        attempt(observerId, { data: 4, at: t1 }),
      ],
      owed: [],
    });
    expect(await status("status", observerId)).toMatchObject({
      delivered: 7,
      failed: 1,
      lastSuccessAt: iso(t1),
      lastFailureAt: iso(t0),
      lastError: "HTTP 503",
    });
  });

  it("keeps the latest outcome when reports arrive out of order", async () => {
    const observerId = await httpObserver("late-reports");
    const stub = metricObject("late-reports");
    const failure = { ok: false, data: 1 };
    await stub.recordBatch({
      attempts: [attempt(observerId, { at: t1 }), attempt(observerId, { ...failure, at: t1, error: "newer" })],
      owed: [],
    });
    await stub.recordBatch({
      attempts: [attempt(observerId, { at: t0 }), attempt(observerId, { ...failure, at: t0, error: "older" })],
      owed: [],
    });
    expect(await status("late-reports", observerId)).toMatchObject({
      delivered: 2,
      failed: 2,
      lastSuccessAt: iso(t1),
      lastFailureAt: iso(t1),
      lastError: "newer",
    });
  });

  it("ignores attempts of observers that no longer exist", async () => {
    const observerId = await httpObserver("gone-observer");
    await metricObject("gone-observer").recordBatch({
      attempts: [attempt("removed-meanwhile", { data: 5 }), attempt(observerId, { data: 1 })],
      owed: [],
    });
    expect(await status("gone-observer", observerId)).toMatchObject({ delivered: 1 });
  });

  it("holds a paused observer's data in its backlog, and its alarm does nothing", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const observerId = await httpObserver("paused");
    const stub = metricObject("paused");
    await stub.changeObserver(observerId, { state: "paused" });

    await stub.recordBatch(heldBatch(observerId, rows("p", 2)));
    await stub.recordBatch(heldBatch(observerId, rows("q", 3)));

    expect(await status("paused", observerId)).toMatchObject({
      backlog: 5,
      oldestBacklogAt: iso(t0),
      nextAttemptAt: null,
    });
    setClock(t0 + hour);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("alarm", () => {
  it("drains the backlog in order, each chunk under its webhook id, counting the attempts at it", async () => {
    const fetch = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(new Response(null, { status: 500 }))
      .mockResolvedValue(new Response(null, { status: 204 }));
    const observerId = await httpObserver("drained");
    const stub = metricObject("drained");
    const [first, second] = [rows("a", 2), rows("b", 1)];
    await stub.recordBatch(failedBatch(observerId, first, "msg_first"));
    await stub.recordBatch(heldBatch(observerId, second, "msg_second"));
    expect(await status("drained", observerId)).toMatchObject({ backlog: 3, nextAttemptAt: iso(t0 + 5_000) });

    setClock(t0 + 5_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await status("drained", observerId)).toMatchObject({
      failed: 2,
      backlog: 3,
      nextAttemptAt: iso(t0 + 35_000),
    });

    setClock(t0 + 35_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const sent = sentRequests(fetch);
    expect(sent.map(({ headers }) => headers["webhook-id"])).toEqual(["msg_first", "msg_first", "msg_second"]);
    expect(sent.map(({ body }) => body)).toEqual([
      towerJson("drained", first),
      towerJson("drained", first),
      towerJson("drained", second),
    ]);
    expect(fetch.mock.calls.every(([url]) => url === "http://drained.example/")).toBe(true);
    const attempts = await stub.observerAttempts(observerId, 50);
    expect(attempts?.map((entry) => [entry.webhookId, entry.attempt, entry.ok])).toEqual([
      ["msg_second", 1, true],
      ["msg_first", 3, true],
      ["msg_first", 2, false],
      ["msg_first", 1, false],
    ]);
    expect(await status("drained", observerId)).toMatchObject({
      delivered: 3,
      failed: 2,
      backlog: 0,
      nextAttemptAt: null,
    });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("waits as long as a 429's Retry-After asks before the next attempt", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(null, { status: 429, headers: { "retry-after": "90" } }),
    );
    const observerId = await httpObserver("throttled");
    const stub = metricObject("throttled");
    await stub.recordBatch(failedBatch(observerId, rows("a", 1), "msg_throttled"));

    setClock(t0 + 5_000);
    await runDurableObjectAlarm(stub);

    expect(await status("throttled", observerId)).toMatchObject({
      backlog: 1,
      nextAttemptAt: iso(t0 + 95_000),
      lastError: "HTTP 429 from the observer",
    });
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(t0 + 95_000);
  });

  it("drains the backlog of a paused observer once it is resumed", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const observerId = await httpObserver("resumed");
    const stub = metricObject("resumed");
    await stub.changeObserver(observerId, { state: "paused" });
    await stub.recordBatch(heldBatch(observerId, rows("r", 2)));
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    setClock(t1);
    const result = await stub.changeObserver(observerId, { state: "active" });
    expect(result).toMatchObject({
      outcome: "changed",
      report: { state: "active", status: { backlog: 2, nextAttemptAt: iso(t1) } },
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect(sentRequests(fetch).map(({ body }) => body)).toEqual([towerJson("resumed", rows("r", 2))]);
    expect(await status("resumed", observerId)).toMatchObject({ delivered: 2, backlog: 0 });
  });

  it("numbers the attempts at a chunk 1, 2, 3, and delivers data held while one was in flight in a chunk of their own", async () => {
    const observerId = await httpObserver("numbered");
    const stub = metricObject("numbered");
    const fetch = vi
      .spyOn(globalThis, "fetch")
      .mockImplementationOnce(async () => {
        // The alarm calls this: a stub made here reaches the object from within it.
        await metricObject("numbered").recordBatch(heldBatch(observerId, rows("s", 1)));
        return new Response(null, { status: 500 });
      })
      .mockResolvedValueOnce(new Response(null, { status: 500 }))
      .mockResolvedValue(new Response(null, { status: 204 }));
    await stub.changeObserver(observerId, { state: "paused" });
    await stub.recordBatch(heldBatch(observerId, rows("r", 2)));
    await stub.changeObserver(observerId, { state: "active" });

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await status("numbered", observerId)).toMatchObject({
      lastError: "HTTP 500 from the observer",
      backlog: 3,
      nextAttemptAt: iso(t0 + 5_000),
    });
    setClock(t0 + 5_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    setClock(t0 + 35_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const sent = sentRequests(fetch);
    expect(sent.map(({ body }) => body)).toEqual([
      ...Array(3).fill(towerJson("numbered", rows("r", 2))),
      towerJson("numbered", rows("s", 1)),
    ]);
    const [held, heldInFlight] = [sent[0]!.headers["webhook-id"], sent[3]!.headers["webhook-id"]];
    expect(heldInFlight).not.toBe(held);
    expect(sent.map(({ headers }) => headers["webhook-id"])).toEqual([held, held, held, heldInFlight]);
    const attempts = await stub.observerAttempts(observerId, 50);
    expect(attempts?.map((entry) => [entry.webhookId, entry.attempt, entry.ok, entry.data])).toEqual([
      [heldInFlight, 1, true, 1],
      [held, 3, true, 2],
      [held, 2, false, 2],
      [held, 1, false, 2],
    ]);
    expect(await status("numbered", observerId)).toMatchObject({ delivered: 3, failed: 2, backlog: 0 });
  });

  it("tries the data of a resumed observer for a whole schedule again, however long it was paused", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 500 }));
    const observerId = await httpObserver("long-paused");
    const stub = metricObject("long-paused");
    await stub.recordBatch(failedBatch(observerId, rows("a", 2), "msg_long_paused"));
    await stub.changeObserver(observerId, { state: "paused" });
    await stub.recordBatch(heldBatch(observerId, rows("b", 1)));

    // Past the default schedule (114,155 seconds) since the first failure.
    const resumed = t0 + 114_155_000 + hour;
    setClock(resumed);
    await stub.changeObserver(observerId, { state: "active" });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await status("long-paused", observerId)).toMatchObject({
      backlog: 3,
      dead: 0,
      nextAttemptAt: iso(resumed + 5_000),
    });
  });

  it("signs with both secrets while a rotation lasts, then with the new one only", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const observerId = await httpObserver("re-keyed", { secret });
    const stub = metricObject("re-keyed");
    await stub.changeObserver(observerId, { secret: rotated });

    await stub.recordBatch(heldBatch(observerId, rows("k", 1)));
    await runDurableObjectAlarm(stub);
    setClock(t0 + 24 * hour);
    await stub.recordBatch(heldBatch(observerId, rows("l", 1)));
    await runDurableObjectAlarm(stub);

    const [during, after] = sentRequests(fetch);
    const signed = ({ headers, body }: { headers: Record<string, string>; body: string }) => ({
      id: headers["webhook-id"]!,
      timestamp: headers["webhook-timestamp"]!,
      body,
    });
    const signatures = during!.headers["webhook-signature"]!.split(" ");
    expect(signatures).toHaveLength(2);
    expect(await verifiesSignature(signatures[0]!, signed(during!), utf8(rotated))).toBe(true);
    expect(await verifiesSignature(signatures[1]!, signed(during!), utf8(secret))).toBe(true);
    expect(after!.headers["webhook-timestamp"]).toBe(String((t0 + 24 * hour) / 1_000));
    expect(await verifiesSignature(after!.headers["webhook-signature"]!, signed(after!), utf8(rotated))).toBe(true);
    expect(after!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
  });

  it("sends an observer's headers with its deliveries, and shows them in no answer", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const token = "Bearer receiver-token-0123456789";
    await declareMetric("with-headers");
    const registered = await sendJson("POST", observersPath("with-headers"), {
      callbackUrl: "http://with-headers.example/",
      headers: { Authorization: token, "x-tenant": "tenant-1" },
    });
    const answers = [await registered.text()];
    const observerId = String(JSON.parse(answers[0]!).id);
    const stub = metricObject("with-headers");

    await stub.recordBatch(heldBatch(observerId, rows("h", 1)));
    await runDurableObjectAlarm(stub);
    const patched = await sendJson("PATCH", `${observersPath("with-headers")}/${observerId}`, {
      headers: { "x-tenant": "tenant-2" },
    });
    answers.push(await patched.text());
    await stub.recordBatch(heldBatch(observerId, rows("i", 1)));
    await runDurableObjectAlarm(stub);

    const [before, after] = sentRequests(fetch);
    expect(before!.headers).toMatchObject({
      Authorization: token,
      "x-tenant": "tenant-1",
      "webhook-id": expect.any(String),
    });
    expect(after!.headers).toMatchObject({ "x-tenant": "tenant-2" });
    expect(after!.headers).not.toHaveProperty("Authorization");
    for (const path of [observersPath("with-headers"), `${observersPath("with-headers")}/${observerId}`]) {
      answers.push(await (await request("GET", path)).text());
    }
    answers.push(JSON.stringify(await stub.observerReport(observerId)), JSON.stringify(await stub.listObservers()));
    for (const answer of answers) {
      expect(answer).not.toContain("receiver-token");
      expect(answer).not.toContain("tenant-");
      expect(answer).not.toContain('"headers"');
    }
  });

  it("disables an observer failing for DISABLE_AFTER_HOURS, and announces it on the intake queue", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 500 }));
    const send = vi
      .spyOn(env.INTAKE_QUEUE, "send")
      .mockResolvedValue({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } });
    const observerId = await httpObserver("disabled");
    const stub = metricObject("disabled");
    await stub.recordBatch(failedBatch(observerId, rows("a", 1), "msg_down"));

    setClock(t0 + 120 * hour);
    await runDurableObjectAlarm(stub);

    const at = t0 + 120 * hour;
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![1]).toEqual({ contentType: "bytes" });
    expect(readIntakeMessage(send.mock.calls[0]![0])).toEqual({
      metrics: [["tower.observer.disabled", [[`tower.observer.disabled:${observerId}:${at}`, at, 1, observerId]]]],
    });
    expect(await stub.observerReport(observerId)).toMatchObject({ state: "disabled", status: { nextAttemptAt: null } });
  });

  it("replays dead data with their webhook id, as a first attempt", async () => {
    const fetch = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(new Response(null, { status: 500 }))
      .mockResolvedValue(new Response(null, { status: 204 }));
    const observerId = await httpObserver("replayed");
    const stub = metricObject("replayed");
    await stub.recordBatch(failedBatch(observerId, rows("a", 2), "msg_replayed"));
    // The default schedule tries data for 114,155 seconds.
    setClock(t0 + 114_155_000);
    await runDurableObjectAlarm(stub);
    expect(await status("replayed", observerId)).toMatchObject({ backlog: 0, dead: 2, lost: 2 });

    expect(await stub.replay(observerId, t0, t0)).toBe(2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect(sentRequests(fetch).map(({ headers }) => headers["webhook-id"])).toEqual(["msg_replayed", "msg_replayed"]);
    expect((await stub.observerAttempts(observerId, 1))?.[0]).toMatchObject({ attempt: 1, ok: true, data: 2 });
    expect(await status("replayed", observerId)).toMatchObject({ delivered: 2, dead: 0, backlog: 0 });
  });
});

describe("changeObserver, replay and observerAttempts", () => {
  it("answer that there is no such observer", async () => {
    await declareMetric("no-such-observer");
    const stub = metricObject("no-such-observer");
    expect(await stub.changeObserver("nope", { state: "paused" })).toEqual({ outcome: "unknown-observer" });
    expect(await stub.replay("nope", 0, t0)).toBeNull();
    expect(await stub.observerAttempts("nope", 50)).toBeNull();
  });
});

describe("changeObserver", () => {
  it("answers the observer's report after the change", async () => {
    const observerId = await httpObserver("changed");
    const stub = metricObject("changed");
    await stub.recordBatch(heldBatch(observerId, rows("c", 2)));

    const result = await stub.changeObserver(observerId, { state: "paused", headers: { "x-tenant": "tenant-1" } });
    expect(result).toEqual({ outcome: "changed", report: await stub.observerReport(observerId) });
    expect(result).toMatchObject({ report: { id: observerId, state: "paused", status: { backlog: 2 } } });
  });

  it("changes nothing of a TCP or UDP observer when headers are given", async () => {
    await declareMetric("socket-headers");
    const stub = metricObject("socket-headers");
    for (const protocol of ["tcp", "udp"]) {
      const { id } = await addObserver("socket-headers", {
        format: "graphite",
        protocol,
        observerHost: "10.0.0.1",
        observerPort: protocol === "tcp" ? 2003 : 2004,
      });
      const observerId = String(id);
      const change = { state: "paused" as const, secret: rotated, headers: { "x-tenant": "tenant-1" } };
      expect(await stub.changeObserver(observerId, change)).toEqual({ outcome: "headers-not-http" });
      expect(await stub.observerReport(observerId)).toMatchObject({ state: "active" });
      expect(await stub.changeObserver(observerId, { state: "paused" })).toMatchObject({
        outcome: "changed",
        report: { state: "paused" },
      });
    }
    const plan = (await stub.deliveryPlan("socket-headers")).observers;
    expect(plan.map(({ target }) => [target.secrets, target.headers])).toEqual([
      [[], {}],
      [[], {}],
    ]);
  });

  it("stops signing with a secret of null, the one being rotated out included", async () => {
    const observerId = await httpObserver("unsigned", { secret });
    const stub = metricObject("unsigned");
    await stub.changeObserver(observerId, { secret: rotated });
    expect((await stub.deliveryPlan("unsigned")).observers[0]?.target.secrets).toEqual([rotated, secret]);

    expect(await stub.changeObserver(observerId, { secret: null })).toMatchObject({ outcome: "changed" });
    expect((await stub.deliveryPlan("unsigned")).observers[0]?.target.secrets).toEqual([]);
  });
});

describe("removeObserver", () => {
  it("removes an observer once, with its backlog and attempts, and reports whether it existed", async () => {
    const removed = await httpObserver("gone");
    const kept = await addObserver("gone", { callbackUrl: "http://kept.example/" });
    const stub = metricObject("gone");
    await stub.recordBatch(failedBatch(removed, rows("a", 2), "msg_removed"));

    expect(await stub.removeObserver(removed)).toBe(true);
    expect(await stub.removeObserver(removed)).toBe(false);

    expect(await stub.observerReport(removed)).toBeNull();
    expect(await stub.listObservers()).toEqual([kept]);
    expect((await request("GET", `${observersPath("gone")}/${removed}`)).status).toBe(404);
    const left = await runInDurableObject(stub, (_, state) => ({
      backlog: new BacklogStore(state.storage.sql, rowsJson).head(removed),
      attempts: new AttemptLog(state.storage.sql).latest(removed, 50),
    }));
    expect(left).toEqual({ backlog: undefined, attempts: [] });
  });
});
