import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { counting } from "../../../test/api/support/durable-object-requests";
import { request, sendJson } from "../../../test/api/support/http";
import { replaceMetricObject } from "../../../test/api/support/metric-objects";
import { addObserver, declareMetric } from "../../../test/api/support/metrics";
import worker from "../index";
import { encodeIntakeMessages } from "../intake/queue-message";
import { BacklogStore } from "../metrics/backlog-store";
import { metricStub } from "../metrics/metric-object";
import { instanceId } from "../ops/instance-id";
import { ruleSchema } from "../rules/document/rule-schema";
import { ruleStub } from "../rules/rule-object";
import { shardOfKey } from "../summary/shard-key";
import { summaryShardStub } from "../summary/summary-shard";
import type { Datum } from "../vocabulary/datum";
import { rowsJson } from "../vocabulary/row-json";

const noRelay = "no relay configured (RELAY_URL)";
/** The test's clock, far ahead of the real one, so that no backlog alarm goes off during a test. */
const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

function datum(id: string, metric: string, value: number): Datum {
  return { id, metric, timestamp: 1_000 * value, value, resourceId: "vm1" };
}

/**
 * Runs the Worker's queue handler on one tower-intake message per group of data (ids intake-0,
 * intake-1, …); returns what it did with the batch, and the error it failed with, if any.
 */
async function consumeIntake(groups: Datum[][], testEnv: Env = env) {
  return consumeBodies(
    groups.flatMap((data) => encodeIntakeMessages(data)),
    testEnv,
  );
}

/** As consumeIntake, on messages given as their bodies. */
async function consumeBodies(bodies: unknown[], testEnv: Env = env) {
  const batch = createMessageBatch(
    "tower-intake",
    bodies.map((body, index) => ({ id: `intake-${index}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  let error: unknown;
  try {
    await (worker as ExportedHandler<Env>).queue!(batch, testEnv, ctx);
  } catch (thrown) {
    error = thrown;
  }
  return { ...(await getQueueResult(batch, ctx)), error };
}

async function statusOf(metric: string, observer: Record<string, unknown>) {
  return (await metricStub(env, metric).observerReport(String(observer.id)))?.status;
}

const acknowledged = (...ids: string[]) => ({ ackAll: false, explicitAcks: ids, retryMessages: [], error: undefined });

/** PLAN_LEASE_MS as the tests run. */
const leaseMs = 2_000;
/** Lets the plan leases granted so far end (they are measured by performance.now(), which the tests' fake date leaves alone). */
const leasesEnded = () => new Promise((resolve) => setTimeout(resolve, leaseMs));

describe("intake consumer", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(t0);
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("makes one delivery per observer for the whole batch, and owes a failed one to the observer's backlog", async () => {
    await declareMetric("intake.tcp");
    const observer = await addObserver("intake.tcp", {
      format: "GRAPHITE",
      protocol: "TCP",
      observerHost: "10.0.0.1",
      observerPort: 2003,
    });
    const [d1, d2, d3] = [1, 2, 3].map((value) => datum(`d${value}`, "intake.tcp", value));

    const result = await consumeIntake([
      [d1!, d2!],
      [datum("q1", "intake.quiet", 9), d3!],
    ]);

    expect(result).toMatchObject(acknowledged("intake-0", "intake-1"));
    expect(await statusOf("intake.tcp", observer)).toMatchObject({
      delivered: 0,
      failed: 1,
      backlog: 3,
      oldestBacklogAt: new Date(t0).toISOString(),
      nextAttemptAt: new Date(t0 + 5_000).toISOString(),
      lastError: noRelay,
    });
    const head = await runInDurableObject(env.METRIC.getByName("intake.tcp"), (_, state) =>
      new BacklogStore(state.storage.sql, rowsJson).head(String(observer.id)),
    );
    expect(head).toMatchObject({
      attempts: 1,
      webhookId: expect.stringMatching(/^msg_/),
      rows: [
        ["d1", 1000, 1, "vm1"],
        ["d2", 2000, 2, "vm1"],
        ["d3", 3000, 3, "vm1"],
      ],
    });
    const [attempt] = (await metricStub(env, "intake.tcp").observerAttempts(String(observer.id), 50))!;
    expect(attempt).toMatchObject({ ok: false, data: 3, attempt: 1, webhookId: head!.webhookId });
  });

  it("registers a metric it sees for the first time, even without observers", async () => {
    const result = await consumeIntake([[datum("n1", "intake.new", 1)]]);
    expect(result).toMatchObject(acknowledged("intake-0"));
    expect(await metricStub(env, "intake.new").describeMetric()).toMatchObject({ id: "intake.new", observers: 0 });
  });

  it("posts the batch to an HTTP observer and records the data delivered, owing nothing", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    await declareMetric("intake.http");
    const observer = await addObserver("intake.http", {
      format: "TOWER/JSON",
      callbackUrl: "http://receiver.example/in",
    });

    const result = await consumeIntake([[datum("h1", "intake.http", 1)], [datum("h2", "intake.http", 2)]]);

    expect(result).toMatchObject(acknowledged("intake-0", "intake-1"));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("http://receiver.example/in");
    expect(init).toMatchObject({
      method: "POST",
      body:
        '[{"resourceId":"vm1","metric":"intake.http","value":1,"timestamp":1000},' +
        '{"resourceId":"vm1","metric":"intake.http","value":2,"timestamp":2000}]',
    });
    expect(await statusOf("intake.http", observer)).toMatchObject({
      delivered: 2,
      failed: 0,
      backlog: 0,
      lastError: null,
    });
  });

  it("removes an observer that answers 410 Gone, and owes it nothing", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 410 }));
    await declareMetric("intake.gone");
    const observer = await addObserver("intake.gone", { callbackUrl: "http://gone.example/" });

    const result = await consumeIntake([[datum("g1", "intake.gone", 1)]]);

    expect(result).toMatchObject(acknowledged("intake-0"));
    expect(await metricStub(env, "intake.gone").observerReport(String(observer.id))).toBeNull();
  });

  it("retries the messages holding data of a metric whose plan fails, and acknowledges the others", async () => {
    replaceMetricObject("intake.broken", { deliveryPlan: () => Promise.reject(new Error("storage down")) });
    vi.spyOn(console, "error").mockImplementation(() => undefined);

    const result = await consumeIntake([
      [datum("b1", "intake.broken", 1)],
      [datum("k1", "intake.kept", 1)],
      [datum("k2", "intake.kept", 2), datum("b2", "intake.broken", 2)],
    ]);

    expect(result).toMatchObject({
      ackAll: false,
      explicitAcks: ["intake-1"],
      retryMessages: [{ msgId: "intake-0" }, { msgId: "intake-2" }],
      error: undefined,
    });
    expect(await metricStub(env, "intake.kept").describeMetric()).toMatchObject({ id: "intake.kept", observers: 0 });
  });

  it("defers an observer that has not answered within DELIVERY_BUDGET_MS, and delivers to the others", async () => {
    let slowSignal: AbortSignal | undefined;
    vi.spyOn(globalThis, "fetch").mockImplementation((url, init) => {
      if (String(url) !== "http://slow.example/") return Promise.resolve(new Response(null, { status: 204 }));
      slowSignal = init?.signal ?? undefined;
      return new Promise((_, reject) => slowSignal?.addEventListener("abort", () => reject(slowSignal?.reason)));
    });
    await declareMetric("intake.budget");
    const slow = await addObserver("intake.budget", { callbackUrl: "http://slow.example/" });
    const healthy = await addObserver("intake.budget", { callbackUrl: "http://healthy.example/" });

    const result = await consumeIntake([[datum("s1", "intake.budget", 1)]], {
      ...env,
      DELIVERY_BUDGET_MS: "200",
    } as Env);

    expect(result).toMatchObject(acknowledged("intake-0"));
    expect(slowSignal?.aborted).toBe(true);
    expect(await statusOf("intake.budget", healthy)).toMatchObject({ delivered: 1, backlog: 0 });
    expect(await statusOf("intake.budget", slow)).toMatchObject({
      delivered: 0,
      failed: 0,
      backlog: 1,
      nextAttemptAt: new Date(t0).toISOString(),
      lastError: null,
    });
    expect(await metricStub(env, "intake.budget").observerAttempts(String(slow.id), 50)).toEqual([
      expect.objectContaining({
        ok: false,
        error: "not answered within the batch's budget; continued from the backlog",
      }),
    ]);
  });

  it("lets go of an observer that answered at once before and now does not, long before DELIVERY_BUDGET_MS", async () => {
    let answerMs = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_, init) =>
        new Promise((resolve, reject) => {
          const answer = setTimeout(() => resolve(new Response(null, { status: 204 })), answerMs);
          init?.signal?.addEventListener("abort", () => {
            clearTimeout(answer);
            reject(init.signal?.reason);
          });
        }),
    );
    await declareMetric("intake.late");
    const observer = await addObserver("intake.late", { callbackUrl: "http://late.example/" });
    const budgetEnv = { ...env, DELIVERY_BUDGET_MS: "4000" } as Env;
    await consumeIntake([[datum("l1", "intake.late", 1)]], budgetEnv);

    answerMs = 3_000;
    const started = performance.now();
    const result = await consumeIntake([[datum("l2", "intake.late", 2)]], budgetEnv);

    expect(result).toMatchObject(acknowledged("intake-0"));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await statusOf("intake.late", observer)).toMatchObject({ delivered: 1, failed: 0, backlog: 1 });
  });

  describe("the chains of upstream services the data came by (tower-edge-via)", () => {
    /** Answers every request `status`, and keeps the tower-edge-via of each request to `host`. */
    function viaAt(host: string, status = () => 204) {
      const vias: (string | null)[] = [];
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).host === host) vias.push(request.headers.get("tower-edge-via"));
        return new Response(null, { status: status() });
      });
      return vias;
    }

    it("names in a payload the chains its data came by, each service once in the order first seen, this one last", async () => {
      const vias = viaAt("union.example");
      await declareMetric("via.union");
      await addObserver("via.union", { callbackUrl: "http://union.example/" });

      const result = await consumeBodies([
        ...encodeIntakeMessages([datum("u1", "via.union", 1)], ["edge-1"]),
        ...encodeIntakeMessages([datum("u2", "via.union", 2)]),
        ...encodeIntakeMessages([datum("u3", "via.union", 3)], ["edge-2", "edge-1", "edge-3"]),
      ]);

      expect(result).toMatchObject(acknowledged("intake-0", "intake-1", "intake-2"));
      expect(vias).toEqual([`edge-1, edge-2, edge-3, ${await instanceId(env)}`]);
    });

    it("names only this service for data that came by no other, beside a metric's that did", async () => {
      const vias = viaAt("alone.example");
      await declareMetric("via.alone");
      await addObserver("via.alone", { callbackUrl: "http://alone.example/" });

      await consumeBodies([
        ...encodeIntakeMessages([datum("o1", "via.other", 1)], ["edge-1"]),
        ...encodeIntakeMessages([datum("a1", "via.alone", 1)]),
      ]);

      expect(vias).toEqual([await instanceId(env)]);
    });

    it("keeps the chain with data owed to the backlog, and names it again in their retry", async () => {
      let status = 503;
      const vias = viaAt("owed.example", () => status);
      await declareMetric("via.owed");
      const observer = await addObserver("via.owed", { callbackUrl: "http://owed.example/" });

      await consumeBodies(encodeIntakeMessages([datum("w1", "via.owed", 1)], ["edge-1"]));
      const stub = env.METRIC.getByName("via.owed");
      const head = await runInDurableObject(stub, (_, state) =>
        new BacklogStore(state.storage.sql, rowsJson).head(String(observer.id)),
      );
      expect(head).toMatchObject({ rows: [["w1", 1000, 1, "vm1"]], via: ["edge-1"] });

      status = 204;
      vi.setSystemTime(t0 + 5_000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      const expected = `edge-1, ${await instanceId(env)}`;
      expect(vias).toEqual([expected, expected]);
      expect(await statusOf("via.owed", observer)).toMatchObject({ delivered: 1, backlog: 0 });
    });
  });

  describe("feeding the rules that read a metric", () => {
    const sumRule = (id: string, metric: string) =>
      ruleSchema.parse({
        id,
        timeStep: 60,
        timeWindow: 60,
        monitoredTargets: [{ class: "VM" }],
        collectedMetric: { metricName: metric },
        metricAggregation: { aggregateFunction: "Sum" },
        actions: [{ name: "OutputMetric", parameters: { metric: `${id}.out` } }],
      });
    /** Data in the window that closes an hour after the test's clock. */
    const recent = (id: string, metric: string, value: number): Datum => ({
      ...datum(id, metric, value),
      timestamp: t0,
    });

    async function installRule(id: string, metric: string) {
      await ruleStub(env, id).install(sumRule(id, metric), true);
      await metricStub(env, metric).addRuleReader(metric, id);
    }

    it("gives a rule the whole batch's data of its metric in one request, each message once", async () => {
      await installRule("feed.sum", "feed.cpu");
      const { value: result, requests } = await counting(() =>
        consumeIntake([[recent("f1", "feed.cpu", 1), recent("f2", "feed.cpu", 2)], [recent("f3", "feed.cpu", 3)]]),
      );

      expect(result).toMatchObject(acknowledged("intake-0", "intake-1"));
      // The metric's plan, one feed of the rule for both messages, and the summary's shard of the metric.
      expect(requests).toBe(3);
      expect(await ruleStub(env, "feed.sum").status()).toMatchObject({ dataRead: 3 });
      await consumeIntake([[recent("f1", "feed.cpu", 1), recent("f2", "feed.cpu", 2)]]);
      expect(await ruleStub(env, "feed.sum").status()).toMatchObject({ dataRead: 3 });
    });

    it("retries the messages of a metric whose rule could not take them", async () => {
      await installRule("feed.broken", "feed.broken-cpu");
      const get = env.RULE.get.bind(env.RULE);
      vi.spyOn(env.RULE, "get").mockImplementation((id, options) =>
        id.equals(env.RULE.idFromName("feed.broken"))
          ? ({ feed: () => Promise.reject(new Error("rule storage down")) } as unknown as ReturnType<typeof get>)
          : get(id, options),
      );
      vi.spyOn(console, "error").mockImplementation(() => undefined);

      const result = await consumeIntake([[recent("r1", "feed.broken-cpu", 1)], [recent("k1", "feed.other", 1)]]);

      expect(result).toMatchObject({ explicitAcks: ["intake-1"], retryMessages: [{ msgId: "intake-0" }] });
    });

    it("stops listing a reader whose rule does not exist", async () => {
      await metricStub(env, "feed.orphan").addRuleReader("feed.orphan", "feed.never-installed");

      await consumeIntake([[recent("o1", "feed.orphan", 1)]]);

      expect((await metricStub(env, "feed.orphan").deliveryPlan("feed.orphan")).ruleReaders).toEqual([]);
    });
  });
  describe("plan leases", () => {
    /** What each request to an observer carried, as [url, the values of its TOWER/JSON elements]. */
    let received: [string, number[]][];
    const receivedAt = (url: string) => received.filter(([to]) => to === url).map(([, values]) => values);

    // Every metric of these tests is followed by a selector observer: only such metrics' plans are leased.
    beforeAll(async () => {
      const follower = {
        format: "TOWER/JSON",
        match: ['{__name__=~"lease.+"}'],
        callbackUrl: "http://follower.example/",
      };
      expect((await sendJson("POST", "/observers", follower)).status).toBe(201);
    });

    beforeEach(() => {
      received = [];
      vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
        const elements = JSON.parse(String(init?.body)) as { value: number }[];
        received.push([String(url), elements.map((element) => element.value)]);
        return new Response(null, { status: 204 });
      });
    });

    const acceptedOf = async (metric: string) => (await metricStub(env, metric).describeMetric())?.dataAccepted;
    const recentIds = async (metric: string) => (await metricStub(env, metric).recentData(10))?.map(([id]) => id);

    it("delivers by a leased plan without asking the metric's object, whose summary shard tells it the data within a few seconds", async () => {
      await consumeIntake([[datum("q1", "lease.quiet", 1)]]);
      // Asked again, with the plan epoch of the metric's shard read first: a lease the next batch trusts.
      await consumeIntake([[datum("q2", "lease.quiet", 2)]]);

      const leased = await counting(() =>
        consumeIntake([[datum("q3", "lease.quiet", 3)], [datum("q4", "lease.quiet", 4)]]),
      );
      // None of the metric's object; the plan epoch of its shard, the selector observer's plan and
      // record, and the summary's one write, of the observer's report and the metric's data.
      expect(leased).toMatchObject({ value: acknowledged("intake-0", "intake-1"), requests: 4 });
      expect(receivedAt("http://follower.example/")).toEqual([[1], [2], [3, 4]]);
      expect(await acceptedOf("lease.quiet")).toBe(2);

      // No further batch: the shard's alarm, once the lease ended.
      await expect.poll(() => acceptedOf("lease.quiet"), { timeout: 3 * leaseMs, interval: 50 }).toBe(4);
      expect(await recentIds("lease.quiet")).toEqual(["q4", "q3", "q2", "q1"]);
      const { metrics } = await summaryShardStub(env, shardOfKey("lease.quiet")).read();
      expect(metrics.find(({ name }) => name === "lease.quiet")).toMatchObject({ dataAccepted: 4 });

      await leasesEnded();
      await consumeIntake([[datum("q5", "lease.quiet", 5)]]);
      expect(await acceptedOf("lease.quiet")).toBe(5);
      expect(await recentIds("lease.quiet")).toEqual(["q5", "q4", "q3", "q2", "q1"]);
    });

    it("tells a metric's object what several batches under its lease consumed, merged, leaving nothing for a next batch", async () => {
      await consumeIntake([[datum("a0", "lease.left", 0)]]);
      await consumeIntake([[datum("a1", "lease.left", 1)]]);
      await consumeIntake([[datum("a2", "lease.left", 2)]]);
      await consumeIntake([[datum("a3", "lease.left", 3), datum("a2", "lease.left", 2)]]);
      expect(await acceptedOf("lease.left")).toBe(2);

      await expect.poll(() => acceptedOf("lease.left"), { timeout: 3 * leaseMs, interval: 50 }).toBe(5);
      expect(await recentIds("lease.left")).toEqual(["a2", "a3", "a1", "a0"]);
      // Nothing left for a next batch to bring.
      await consumeIntake([[datum("o1", "lease.other", 1)]]);
      expect(await acceptedOf("lease.left")).toBe(5);
    });

    it("delivers to an observer of the metric every datum accepted after its registration answered, at once", async () => {
      await consumeIntake([[datum("m1", "lease.observed", 1)]]);
      await consumeIntake([[datum("m2", "lease.observed", 2)]]);
      await consumeIntake([[datum("m3", "lease.observed", 3)]]);

      const started = performance.now();
      await addObserver("lease.observed", { format: "TOWER/JSON", callbackUrl: "http://observed.example/" });
      expect(performance.now() - started).toBeLessThan(leaseMs / 2);
      await consumeIntake([[datum("m4", "lease.observed", 4)]]);

      expect(receivedAt("http://observed.example/")).toEqual([[4]]);
      // m3, consumed under the lease, reaches the object with its shard's hand-over.
      expect(await acceptedOf("lease.observed")).toBe(3);
      await expect.poll(() => acceptedOf("lease.observed"), { timeout: 3 * leaseMs, interval: 50 }).toBe(4);
    });

    it("delivers to a selector observer every datum accepted after its registration answered, of metrics leased without it", async () => {
      await consumeIntake([[datum("s1", "lease_sel_a", 1), datum("s1", "lease_sel_b", 1)]]);
      await consumeIntake([[datum("s2", "lease_sel_a", 2), datum("s2", "lease_sel_b", 2)]]);
      await consumeIntake([[datum("s2x", "lease_sel_a", 2)]]);

      const registration = await sendJson("POST", "/observers", {
        format: "TOWER/JSON",
        match: ['{__name__=~"lease_sel_.+"}'],
        callbackUrl: "http://selector.example/",
      });
      expect(registration.status).toBe(201);
      await consumeIntake([[datum("s3", "lease_sel_a", 3)], [datum("s3", "lease_sel_b", 3)]]);

      expect(receivedAt("http://selector.example/")).toEqual([[3, 3]]);
      const { id } = (await registration.json()) as { id: string };
      expect((await request("DELETE", `/observers/${id}`)).status).toBe(204);
      // Removed at once: plans leased since still name it, and its object refuses their data.
      await consumeIntake([[datum("s4", "lease_sel_a", 4)]]);
      expect(receivedAt("http://selector.example/")).toHaveLength(1);
    });
  });
});
