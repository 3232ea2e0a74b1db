import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { counting } from "../../../test/api/support/durable-object-requests";
import { replaceMetricObject } from "../../../test/api/support/metric-objects";
import { readConfig } from "../config";
import { BacklogStore } from "../metrics/backlog-store";
import { metricStub } from "../metrics/metric-object";
import type { ObserverRegistration } from "../metrics/observer-schema";
import { figures } from "../summary/summary-fixtures";
import type { DatumRow } from "../vocabulary/datum";
import { maxDataPerPayload } from "../vocabulary/delivery";
import { rowsJson } from "../vocabulary/row-json";
import { deliverBatch } from "./fan-out";

function rows(count: number): DatumRow[] {
  return Array.from({ length: count }, (_, index) => [`d${index}`, index, index, "r"]);
}

const noRelay = "no relay configured (RELAY_URL)";
const tcp: ObserverRegistration = {
  format: "GRAPHITE",
  protocol: "TCP",
  observerHost: "127.0.0.1",
  observerPort: 2003,
};
const http: ObserverRegistration = { format: "TOWER/JSON", protocol: "HTTP", callbackUrl: "http://receiver.example/" };

/** Without a relay every TCP delivery fails, without any network. */
const withoutRelay = () => ({ ...readConfig(env), RELAY_URL: "" });

async function observe(metric: string, registration: ObserverRegistration): Promise<string> {
  await metricStub(env, metric).declareMetric(metric, {});
  const registered = await metricStub(env, metric).registerObserver(registration, 10, undefined);
  if (registered.outcome !== "created") throw new Error(`observer of ${metric} not created: ${registered.outcome}`);
  return registered.observer.id;
}

const statusOf = async (metric: string, observerId: string) =>
  (await metricStub(env, metric).observerReport(observerId))?.status;

describe("deliverBatch", () => {
  beforeEach(() => {
    // Far ahead of the real clock, so that no backlog alarm goes off during the test.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2031, 0, 1));
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("splits a share larger than one payload into bounded payloads, each owed with a webhook id of its own", async () => {
    const metric = "sliced";
    const observerId = await observe(metric, tcp);

    expect(await deliverBatch(env, withoutRelay(), new Map([[metric, rows(2 * maxDataPerPayload + 5)]]))).toEqual([]);

    const attempts = (await metricStub(env, metric).observerAttempts(observerId, 50))!;
    expect(attempts.map((attempt) => attempt.data).toSorted((a, b) => a - b)).toEqual([
      5,
      maxDataPerPayload,
      maxDataPerPayload,
    ]);
    expect(attempts.every((attempt) => attempt.attempt === 1 && attempt.error === noRelay)).toBe(true);
    expect(new Set(attempts.map((attempt) => attempt.webhookId)).size).toBe(3);
    expect(await statusOf(metric, observerId)).toMatchObject({
      delivered: 0,
      failed: 3,
      backlog: 2 * maxDataPerPayload + 5,
      lastError: noRelay,
    });
  });

  it("sends each observer its payloads in order, and none behind one it did not take", async () => {
    const [failing, taking] = ["http://failing.example/", "http://taking.example/"];
    const fetch = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation((url) =>
        Promise.resolve(new Response(null, { status: String(url) === failing ? 500 : 204 })),
      );
    const failingId = await observe("ordered", { ...http, callbackUrl: failing });
    const takingId = await observe("ordered", { ...http, callbackUrl: taking });

    expect(await deliverBatch(env, readConfig(env), new Map([["ordered", rows(maxDataPerPayload + 1)]]))).toEqual([]);

    const sizesSent = (url: string) =>
      fetch.mock.calls.filter(([to]) => String(to) === url).map(([, init]) => JSON.parse(String(init?.body)).length);
    expect(sizesSent(taking)).toEqual([maxDataPerPayload, 1]);
    expect(sizesSent(failing)).toEqual([maxDataPerPayload]);
    expect(await statusOf("ordered", takingId)).toMatchObject({ delivered: maxDataPerPayload + 1, backlog: 0 });
    expect(await statusOf("ordered", failingId)).toMatchObject({ failed: 1, backlog: maxDataPerPayload + 1 });
    const backlog = await runInDurableObject(env.METRIC.getByName("ordered"), (_, state) => {
      const store = new BacklogStore(state.storage.sql, rowsJson);
      const sizes: number[] = [];
      for (let chunk = store.head(failingId); chunk; chunk = store.head(failingId)) {
        sizes.push(chunk.data);
        store.remove(chunk.seq);
      }
      return sizes;
    });
    expect(backlog).toEqual([maxDataPerPayload, 1]);
  });

  it("lets go of an observer that answered quickly before and now hangs long before the budget ends", async () => {
    const hung = "http://newly-hung.example/";
    let hanging = false;
    vi.spyOn(globalThis, "fetch").mockImplementation((url, init) =>
      hanging && String(url) === hung
        ? new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)))
        : Promise.resolve(new Response(null, { status: 204 })),
    );
    const hungId = await observe("newly-hung", { ...http, callbackUrl: hung });
    const otherId = await observe("beside-hung", http);
    const config = { ...readConfig(env), DELIVERY_BUDGET_MS: 4_000 };
    await deliverBatch(env, config, new Map([["newly-hung", rows(1)]]));

    hanging = true;
    const started = performance.now();
    const batch = new Map([
      ["newly-hung", rows(2)],
      ["beside-hung", rows(3)],
    ]);
    expect(await deliverBatch(env, config, batch)).toEqual([]);

    // The observer answered at once before: a small part of the budget is all it is given now.
    expect(performance.now() - started).toBeLessThan(config.DELIVERY_BUDGET_MS / 2);
    expect(await statusOf("beside-hung", otherId)).toMatchObject({ delivered: 3, backlog: 0 });
    expect(await statusOf("newly-hung", hungId)).toMatchObject({ delivered: 1, failed: 0, backlog: 2 });
    const [cut] = (await metricStub(env, "newly-hung").observerAttempts(hungId, 1))!;
    expect(cut).toMatchObject({ ok: false, error: expect.stringMatching(/budget/) });
    const owedId = await runInDurableObject(
      env.METRIC.getByName("newly-hung"),
      (_, state) => new BacklogStore(state.storage.sql, rowsJson).head(hungId)?.webhookId,
    );
    expect(owedId).toBe(cut?.webhookId);
  });

  it("plans a batch of a metric only once the batch before it recorded, so that newer data never overtake", async () => {
    let requests = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation((_, init) => {
      requests += 1;
      // The first request goes unanswered until the batch lets go of it; any later one would be taken.
      return requests === 1
        ? new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)))
        : Promise.resolve(new Response(null, { status: 204 }));
    });
    const observerId = await observe("overtaking", http);
    const config = { ...readConfig(env), DELIVERY_BUDGET_MS: 300 };

    const earlier = deliverBatch(env, config, new Map([["overtaking", rows(2)]]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const later = deliverBatch(env, config, new Map([["overtaking", rows(3)]]));
    expect(await Promise.all([earlier, later])).toEqual([[], []]);

    expect(requests).toBe(1);
    const backlog = await runInDurableObject(env.METRIC.getByName("overtaking"), (_, state) => {
      const chunk = new BacklogStore(state.storage.sql, rowsJson).head(observerId);
      return chunk?.rows.map(([id]) => id);
    });
    // The earlier batch's payload first, then the later batch's data held behind it.
    expect(backlog).toEqual(["d0", "d1"]);
    expect(await statusOf("overtaking", observerId)).toMatchObject({ delivered: 0, backlog: 5 });
  });

  it("delivers nothing and records nothing for a metric without observers, which it creates", async () => {
    const { value, requests } = await counting(() =>
      deliverBatch(env, readConfig(env), new Map([["unobserved", rows(3)]])),
    );
    expect(value).toEqual([]);
    expect(requests).toBe(1);
    expect(await metricStub(env, "unobserved").describeMetric()).toMatchObject({ id: "unobserved", observers: 0 });
  });

  it("asks each metric's object once for its plan and once to record the batch", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const delivered = await observe("two-kinds", http);
    const owed = await metricStub(env, "two-kinds").registerObserver(tcp, 10, undefined);
    if (owed.outcome !== "created") throw new Error(owed.outcome);

    const { value, requests } = await counting(() =>
      deliverBatch(env, withoutRelay(), new Map([["two-kinds", rows(4)]])),
    );

    expect(value).toEqual([]);
    expect(requests).toBe(2);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await statusOf("two-kinds", delivered)).toMatchObject({ delivered: 4, failed: 0, backlog: 0 });
    expect(await statusOf("two-kinds", owed.observer.id)).toMatchObject({ delivered: 0, failed: 1, backlog: 4 });
  });

  it("logs one structured line per delivery attempt", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 503 }));
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const observerId = await observe("logged", http);

    await deliverBatch(env, withoutRelay(), new Map([["logged", rows(2)]]));

    const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        event: "delivery.attempt",
        metric: "logged",
        observerId,
        protocol: "HTTP",
        format: "TOWER/JSON",
        ok: false,
        httpStatus: 503,
        attempt: 1,
        data: 2,
        webhookId: expect.stringMatching(/^msg_/),
      }),
    ]);
  });

  it("holds the data of a paused observer in its backlog without trying it", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const observerId = await observe("paused", http);
    await metricStub(env, "paused").changeObserver(observerId, { state: "paused" });

    expect(await deliverBatch(env, readConfig(env), new Map([["paused", rows(2)]]))).toEqual([]);

    expect(fetch).not.toHaveBeenCalled();
    expect(await statusOf("paused", observerId)).toMatchObject({ delivered: 0, failed: 0, backlog: 2 });
    expect(await metricStub(env, "paused").observerAttempts(observerId, 50)).toEqual([]);
  });

  it("holds a share larger than one payload in payload-sized chunks", async () => {
    const metric = "held-sliced";
    const observerId = await observe(metric, http);
    await metricStub(env, metric).changeObserver(observerId, { state: "paused" });

    await deliverBatch(env, readConfig(env), new Map([[metric, rows(2 * maxDataPerPayload + 5)]]));

    expect(await statusOf(metric, observerId)).toMatchObject({ backlog: 2 * maxDataPerPayload + 5 });
    const chunks = await runInDurableObject(env.METRIC.getByName(metric), (_, state) => {
      const backlog = new BacklogStore(state.storage.sql, rowsJson);
      const sizes: number[] = [];
      for (let chunk = backlog.head(observerId); chunk; chunk = backlog.head(observerId)) {
        sizes.push(chunk.data);
        backlog.remove(chunk.seq);
      }
      return sizes;
    });
    expect(chunks).toEqual([maxDataPerPayload, maxDataPerPayload, 5]);
  });

  it("holds new data behind an observer's backlog, so that they arrive in order", async () => {
    const observerId = await observe("behind", tcp);
    await deliverBatch(env, withoutRelay(), new Map([["behind", rows(2)]]));
    const fetch = vi.spyOn(globalThis, "fetch");

    await deliverBatch(env, withoutRelay(), new Map([["behind", rows(3)]]));

    expect(fetch).not.toHaveBeenCalled();
    expect(await statusOf("behind", observerId)).toMatchObject({ failed: 1, backlog: 5 });
  });

  it("owes nothing to an observer removed since its data were accepted", async () => {
    const observerId = await observe("removed-since", tcp);
    await metricStub(env, "removed-since").removeObserver(observerId);

    const { value, requests } = await counting(() =>
      deliverBatch(env, withoutRelay(), new Map([["removed-since", rows(2)]])),
    );
    expect(value).toEqual([]);
    expect(requests).toBe(1);
  });

  it("returns the metrics whose observers cannot be read, and delivers the others", async () => {
    replaceMetricObject("unreachable", { deliveryPlan: () => Promise.reject(new Error("storage down")) });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const observerId = await observe("reachable", tcp);

    const dataByMetric = new Map([
      ["unreachable", rows(2)],
      ["reachable", rows(1)],
    ]);
    expect(await deliverBatch(env, withoutRelay(), dataByMetric)).toEqual(["unreachable"]);

    expect(await statusOf("reachable", observerId)).toMatchObject({ backlog: 1 });
    expect(logged).toHaveBeenCalledWith('observers of "unreachable" not read: storage down');
  });

  it("returns a metric whose batch cannot be recorded", async () => {
    const target = { ...tcp, id: "o1", state: "active", secrets: [], headers: {} };
    replaceMetricObject("unrecorded", {
      deliveryPlan: () =>
        Promise.resolve({
          observers: [{ target, held: true }],
          selectors: [],
          ruleReaders: [],
          figures: figures("unrecorded", 0),
        }),
      recordBatch: () => Promise.reject(new Error("storage full")),
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);

    expect(await deliverBatch(env, withoutRelay(), new Map([["unrecorded", rows(2)]]))).toEqual(["unrecorded"]);
    expect(logged).toHaveBeenCalledWith('deliveries of "unrecorded" not recorded: storage full');
  });
});
