import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { counting } from "../../../test/api/support/durable-object-requests";
import { expectProblem, request, sendJson, validationProblem } from "../../../test/api/support/http";
import { consumeGroups } from "../../../test/api/support/intake-batches";
import { addObserver, declareMetric } from "../../../test/api/support/metrics";
import { upload } from "../../../test/api/support/resources";
import { shardOfKey } from "../summary/shard-key";
import { summaryShardStub } from "../summary/summary-shard";
import type { Datum } from "../vocabulary/datum";

/** PLAN_LEASE_MS as the tests run. */
const planLeaseMs = 2_000;

/** The test's clock, far ahead of the real one, so that no backlog alarm goes off by itself during a test. */
const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

const consume = (...groups: Datum[][]) => consumeGroups(groups);

function datum(metric: string, value: number, resourceId = "vm1"): Datum {
  return { id: `${metric}-${value}`, metric, timestamp: 1_000 * value, value, resourceId };
}

/** Registers a selector observer; answers it as the service did. */
async function observe(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await sendJson("POST", "/observers", { format: "TOWER/JSON", ...body });
  expect(response.status).toBe(201);
  return response.json();
}

/** A receiver that answers `status`; what each request carried, as TOWER/JSON elements, per URL. */
function receiver(status = 204) {
  const received: { url: string; body: { metric: string; value: number }[] }[] = [];
  const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
    received.push({ url: String(url), body: JSON.parse(String(init?.body)) });
    return new Response(null, { status });
  });
  return { received, fetch };
}

const view = (id: unknown) => request("GET", `/observers/${String(id)}`).then((response) => response.json());

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(t0);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("POST /observers", () => {
  it("registers an observer that follows selectors, and answers the same one for the same registration", async () => {
    const body = { match: ['{__name__=~"reg_.*"}'], callbackUrl: "http://registered.example/" };
    const created = await observe(body);
    expect(created).toMatchObject({
      ...body,
      format: "TOWER/JSON",
      protocol: "HTTP",
      state: "active",
      status: { delivered: 0, backlog: 0 },
    });

    const again = await sendJson("POST", "/v1/observers", { format: "tower/json", ...body });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: created.id });
    const other = await observe({ ...body, labels: { add: { region: "eu" } } });
    expect(other.id).not.toBe(created.id);
  });

  it.each<[string, unknown, { path: string; message: string }[]]>([
    [
      "neither match nor resources",
      { callbackUrl: "http://x.example/" },
      [
        {
          path: "/match",
          message: "Give match (PromQL series selectors), resources (a selection through the model), or both.",
        },
      ],
    ],
    [
      "a selector with a syntax error",
      { match: ["up", 'up{job="a"'], callbackUrl: "http://x.example/" },
      [{ path: "/match/1", message: expect.stringMatching(/position 10/) }],
    ],
    [
      "a selector that matches everything",
      { match: ['{job=~".*"}'], callbackUrl: "http://x.example/" },
      [{ path: "/match/0", message: expect.stringMatching(/empty/) }],
    ],
    [
      "too many selectors",
      { match: Array.from({ length: 21 }, () => "up"), callbackUrl: "http://x.example/" },
      [{ path: "/match", message: "At most 20 selectors may be given." }],
    ],
    [
      "a reserved label to add",
      { match: ["up"], labels: { add: { __name__: "x" } }, callbackUrl: "http://x.example/" },
      [{ path: "/labels/add/__name__", message: "Label names beginning with __ are reserved." }],
    ],
  ])("refuses %s, pointing at the problem", async (_, body, errors) => {
    await expectProblem(
      await sendJson("POST", "/observers", body),
      400,
      validationProblem("The request has problems; see errors.", errors),
    );
  });
});

describe("GET /observers", () => {
  it("lists selector observers with how many metrics they follow now, and every metric's observers with their metric", async () => {
    await declareMetric("listed_a");
    await declareMetric("listed_b");
    const perMetric = await addObserver("listed_a", { callbackUrl: "http://per-metric.example/" });
    const selector = await observe({ match: ['{__name__=~"listed_.*"}'], callbackUrl: "http://listed.example/" });

    const listed = (await (await request("GET", "/observers")).json()) as Record<string, unknown>[];

    expect(listed).toContainEqual(expect.objectContaining({ id: selector.id, follows: 2 }));
    expect(listed).toContainEqual({
      ...perMetric,
      metric: "listed_a",
      signed: false,
      headerNames: [],
      status: expect.objectContaining({ delivered: 0, backlog: 0 }),
    });
  });
});

describe("delivery to an observer that follows selectors", () => {
  it("gets every matching datum of a batch, of every metric, in one payload; other data not", async () => {
    const { received } = receiver();
    await observe({ match: ['{__name__=~"one_.*",__resource__!="skip"}'], callbackUrl: "http://one.example/" });

    await consume([datum("one_a", 1), datum("one_b", 2), datum("one_a", 3, "skip")], [datum("other", 4)]);

    const delivered = received.filter(({ url }) => url === "http://one.example/");
    expect(delivered.map(({ body }) => body.map(({ metric, value }) => [metric, value]))).toEqual([
      [
        ["one_a", 1],
        ["one_b", 2],
      ],
    ]);
  });

  it("gets the data of a metric that appears after it was registered, from its first datum", async () => {
    const { received } = receiver();
    const observer = await observe({ match: ["later_metric"], callbackUrl: "http://later.example/" });

    await consume([datum("later_metric", 1)]);

    expect(received.map(({ url }) => url)).toEqual(["http://later.example/"]);
    expect(await view(observer.id)).toMatchObject({ status: { delivered: 1 } });
  });

  it("holds what a paused observer would get in its backlog, and delivers it in order on resume", async () => {
    const { received } = receiver();
    const observer = await observe({ match: ['{__name__=~"held_.*"}'], callbackUrl: "http://held.example/" });
    await sendJson("PATCH", `/observers/${observer.id}`, { state: "paused" });

    await consume([datum("held_a", 1), datum("held_b", 2)]);
    await consume([datum("held_a", 3)]);
    expect(received).toEqual([]);
    expect(await view(observer.id)).toMatchObject({ state: "paused", status: { backlog: 3 } });

    await sendJson("PATCH", `/observers/${observer.id}`, { state: "active" });
    await runDurableObjectAlarm(env.SELECTOR_OBSERVER.getByName(String(observer.id)));

    expect(received.flatMap(({ body }) => body.map(({ metric, value }) => [metric, value]))).toEqual([
      ["held_a", 1],
      ["held_b", 2],
      ["held_a", 3],
    ]);
    expect(await view(observer.id)).toMatchObject({ status: { backlog: 0, delivered: 3 } });
  });

  it("keeps what it did not take, and sends it again with the same webhook-id before newer data", async () => {
    const { received, fetch } = receiver(503);
    const observer = await observe({ match: ['{__name__=~"down_.*"}'], callbackUrl: "http://down.example/" });

    await consume([datum("down_a", 1), datum("down_b", 2)]);
    expect(await view(observer.id)).toMatchObject({
      status: { failed: 1, backlog: 2, lastError: "HTTP 503 from the observer" },
    });
    fetch.mockResolvedValue(new Response(null, { status: 204 }));
    await consume([datum("down_a", 3)]);
    vi.setSystemTime(t0 + 60_000);
    await runDurableObjectAlarm(env.SELECTOR_OBSERVER.getByName(String(observer.id)));

    const webhookIds = fetch.mock.calls.map(([, init]) => new Headers(init?.headers).get("webhook-id"));
    expect(webhookIds).toHaveLength(3);
    expect(webhookIds[1]).toBe(webhookIds[0]);
    expect(
      fetch.mock.calls.map(([, init]) => JSON.parse(String(init?.body)).map(({ value }: { value: number }) => value)),
    ).toEqual([[1, 2], [1, 2], [3]]);
    expect(received).toHaveLength(1);
    expect(await view(observer.id)).toMatchObject({ status: { backlog: 0, delivered: 3 } });
    const attempts = (await (await request("GET", `/observers/${observer.id}/attempts`)).json()) as unknown[];
    expect(attempts).toHaveLength(3);
  });

  it("registers a second one once the plans leased without it ended, when no summary shard can revoke them", async () => {
    receiver();
    await observe({ match: ['{__name__=~"unrevoked_.*"}'], callbackUrl: "http://first.example/" });
    // The second batch's plan is a lease the consumer trusts.
    await consume([datum("unrevoked_a", 1)]);
    await consume([datum("unrevoked_a", 2)]);
    const shardGet = env.SUMMARY_SHARD.get.bind(env.SUMMARY_SHARD);
    vi.spyOn(env.SUMMARY_SHARD, "get").mockImplementation((id, options) => {
      const shard = shardGet(id, options);
      return new Proxy(shard, {
        get: (target, property) =>
          property === "revokeLeasedPlans"
            ? () => Promise.reject(new Error("summary shard unavailable"))
            : Reflect.get(target, property),
      });
    });
    vi.spyOn(console, "error").mockImplementation(() => undefined);

    const started = performance.now();
    await observe({ match: ['{__name__=~"unrevoked_.*"}'], callbackUrl: "http://second.example/" });
    expect(performance.now() - started).toBeGreaterThan(planLeaseMs - 500);
  });

  it.each([1, 100])(
    "costs its object two requests for a batch of %i metrics, and each metric one per plan lease",
    async (count) => {
      receiver();
      await observe({ match: [`{__name__=~"cost${count}_.*"}`], callbackUrl: "http://cost.example/" });
      const metrics = Array.from({ length: count }, (_, index) => `cost${count}_${index}`);
      const shards = new Set(metrics.map(shardOfKey)).size;
      await consume(metrics.map((metric) => datum(metric, 1)));
      // Asked again with their shards' plan epochs read first: leases the next batches trust.
      await consume(metrics.map((metric) => datum(metric, 2)));

      const leased = await counting(() => consume(metrics.map((metric) => datum(metric, 3))));
      // The metrics' objects: none, their plans leased to the batch before; the selector observer's: two;
      // the summary: the plan epoch of each shard the metrics are in, and one write to each, carrying
      // their leased data.
      expect(leased.requests).toBe(2 + 2 * shards);

      await new Promise((resolve) => setTimeout(resolve, planLeaseMs));
      // Once the leases ended, their shards hand the leased batch's data to the metrics' objects: done
      // before counting, so that none of those requests falls into the next batch's count.
      const counted = async () => {
        const contents = await Promise.all(
          [...new Set(metrics.map(shardOfKey))].map((shard) => summaryShardStub(env, shard).read()),
        );
        return contents
          .flatMap((content) => content.metrics)
          .filter(({ name }) => metrics.includes(name))
          .reduce((total, figures) => total + figures.dataAccepted, 0);
      };
      await expect.poll(counted, { timeout: 3 * planLeaseMs, interval: 50 }).toBe(3 * count);
      const renewed = await counting(() => consume(metrics.map((metric) => datum(metric, 4))));
      // Each metric's object: its plan (its observers have nothing to record); the summary as before.
      expect(renewed.requests).toBe(count + 2 + 2 * shards);
    },
  );
});

describe("selection through the model", () => {
  it("follows a VM's move to another provider: within selects by the model as it is now", async () => {
    const { received } = receiver();
    await upload("POST", {
      cloudProviders: [
        { id: "sel-aws", type: "IaaS" },
        { id: "sel-gcp", type: "IaaS" },
      ],
      vMs: [
        { id: "sel-vm1", type: "Frontend", cloudProvider: "sel-aws", numberOfCPUs: 2 },
        { id: "sel-vm2", type: "Backend", cloudProvider: "sel-gcp", numberOfCPUs: 2 },
      ],
    });
    await observe({ resources: { class: "VM", within: "sel-aws" }, callbackUrl: "http://within.example/" });
    // The isolate checks the model at most every few seconds.
    vi.setSystemTime(t0 + 10_000);
    const delivered = () => received.flatMap(({ body }) => body.map(({ value }) => value));

    await consume([
      datum("within_cpu", 1, "sel-vm1"),
      datum("within_cpu", 2, "sel-vm2"),
      datum("within_cpu", 3, "sel-aws"),
    ]);
    expect(delivered()).toEqual([1]);

    await upload("POST", { vMs: [{ id: "sel-vm2", type: "Backend", cloudProvider: "sel-aws", numberOfCPUs: 2 }] });
    vi.setSystemTime(t0 + 20_000);
    await consume([datum("within_cpu", 4, "sel-vm1"), datum("within_cpu", 5, "sel-vm2")]);
    expect(delivered()).toEqual([1, 4, 5]);
  });

  it("selects an agent's datum by its primary label's value, and one without a primary label not at all", async () => {
    const { received } = receiver();
    await upload("POST", {
      cloudProviders: [{ id: "sel-agent-cloud", type: "IaaS" }],
      vMs: [{ id: "sel-agent-vm", type: "Frontend", cloudProvider: "sel-agent-cloud", numberOfCPUs: 1 }],
    });
    await observe({ resources: { ids: ["sel-agent-vm"] }, callbackUrl: "http://agent-model.example/" });
    vi.setSystemTime(t0 + 30_000);
    const labelled = (value: number, resourceId: string, pairs: [string, string][]): Datum => ({
      ...datum("agent_cpu", value, resourceId),
      labels: { pairs },
    });

    await consume([
      labelled(1, "sel-agent-vm,cpu=0", [
        ["cpu", "0"],
        ["host", "sel-agent-vm"],
      ]),
      labelled(2, "cpu=0,host=sel-agent-vm", [
        ["cpu", "0"],
        ["host", "sel-agent-vm"],
      ]),
      datum("agent_cpu", 3, "sel-agent-vm"),
    ]);

    expect(received.flatMap(({ body }) => body.map(({ value }) => value))).toEqual([1, 3]);
  });
});

describe("DELETE /observers/:oid", () => {
  it("removes the observer: it gets nothing more, and is no longer found", async () => {
    const { received } = receiver();
    const observer = await observe({ match: ["gone_metric"], callbackUrl: "http://gone.example/" });

    expect((await request("DELETE", `/observers/${observer.id}`)).status).toBe(204);
    await consume([datum("gone_metric", 1)]);

    expect(received).toEqual([]);
    expect((await request("GET", `/observers/${observer.id}`)).status).toBe(404);
    expect((await request("DELETE", `/observers/${observer.id}`)).status).toBe(404);
  });
});
