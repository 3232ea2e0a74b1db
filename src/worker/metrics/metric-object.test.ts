import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { request, sendJson } from "../../../test/api/support/http";
import { addObserver, declareMetric, metricPath, observersPath } from "../../../test/api/support/metrics";
import type { DeliveryOutcome } from "../delivery/vocabulary";

/** The metric's Durable Object, addressed the way the delivery side does. */
function metricObject(name: string) {
  return env.METRIC.get(env.METRIC.idFromName(name));
}

async function status(metric: string, observerId: unknown): Promise<unknown> {
  const response = await request("GET", `${observersPath(metric)}/${observerId}`);
  expect(response.status).toBe(200);
  return (await response.json<{ status: unknown }>()).status;
}

const secret = "0123456789abcdef-secret";
const t1 = Date.UTC(2026, 0, 2, 3, 4, 5);
const t2 = t1 + 60_000;

describe("ensureMetric", () => {
  it("creates the metric once and leaves an existing one as it is", async () => {
    await metricObject("ensured").ensureMetric("ensured");
    expect(await (await request("GET", metricPath("ensured"))).json()).toEqual({ id: "ensured", observers: 0 });

    expect((await sendJson("PUT", metricPath("ensured"), { unit: "ms" })).status).toBe(200);
    await addObserver("ensured", { callbackUrl: "http://ensured.example/" });
    await metricObject("ensured").ensureMetric("ensured");
    const metric = await (await request("GET", metricPath("ensured"))).json();
    expect(metric).toEqual({ id: "ensured", unit: "ms", observers: 1 });
  });
});

describe("deliveryTargets and observerTarget", () => {
  it("creates an unknown metric and returns no targets", async () => {
    expect(await metricObject("fresh").deliveryTargets("fresh")).toEqual([]);
    expect((await request("GET", metricPath("fresh"))).status).toBe(200);
  });

  it("returns every observer with its secret, in registration order", async () => {
    await declareMetric("targets");
    const http = await addObserver("targets", { format: "tower/json", callbackUrl: "http://t.example/", secret });
    const tcp = await addObserver("targets", {
      format: "graphite",
      protocol: "tcp",
      observerHost: "10.0.0.1",
      observerPort: 2003,
    });

    const stub = metricObject("targets");
    expect(await stub.deliveryTargets("targets")).toEqual([
      { id: http.id, format: "TOWER/JSON", protocol: "HTTP", callbackUrl: "http://t.example/", secret },
      { id: tcp.id, format: "GRAPHITE", protocol: "TCP", observerHost: "10.0.0.1", observerPort: 2003 },
    ]);
    expect(await stub.observerTarget(String(http.id))).toEqual({ ...http, secret });
    expect(await stub.observerTarget(String(tcp.id))).toEqual(tcp);
    expect(await stub.observerTarget("unknown")).toBeNull();
  });

  it("uses the secret of the latest registration of the same target", async () => {
    await declareMetric("rotated");
    const first = await addObserver("rotated", { callbackUrl: "http://r.example/", secret });
    const rotated = "fedcba9876543210-rotated";
    const reRegistration = { callbackUrl: "http://r.example/", secret: rotated };
    const again = await sendJson("POST", observersPath("rotated"), reRegistration);
    expect(again.status).toBe(200);
    expect(await metricObject("rotated").observerTarget(String(first.id))).toEqual({ ...first, secret: rotated });
  });
});

describe("recordDeliveries", () => {
  it("adds successes, failures and losses to the observer's status", async () => {
    await declareMetric("status");
    const observer = await addObserver("status", { callbackUrl: "http://s.example/" });
    const observerId = String(observer.id);
    const stub = metricObject("status");

    await stub.recordDeliveries([{ observerId, ok: true, data: 3, at: t1 }]);
    expect(await status("status", observerId)).toEqual({
      delivered: 3,
      failed: 0,
      lost: 0,
      lastSuccessAt: "2026-01-02T03:04:05.000Z",
      lastFailureAt: null,
      lastError: null,
    });

    await stub.recordDeliveries([
      { observerId, ok: false, data: 2, at: t1, error: "HTTP 503" },
      { observerId, ok: true, data: 4, at: t2 },
    ]);
    expect(await status("status", observerId)).toEqual({
      delivered: 7,
      failed: 1,
      lost: 0,
      lastSuccessAt: "2026-01-02T03:05:05.000Z",
      lastFailureAt: "2026-01-02T03:04:05.000Z",
      lastError: "HTTP 503",
    });

    const error = "gave up after 8 attempts";
    await stub.recordDeliveries([{ observerId, ok: false, lost: true, data: 2, at: t2, error }]);
    expect(await status("status", observerId)).toEqual({
      delivered: 7,
      failed: 2,
      lost: 2,
      lastSuccessAt: "2026-01-02T03:05:05.000Z",
      lastFailureAt: "2026-01-02T03:05:05.000Z",
      lastError: error,
    });
  });

  it("keeps the latest outcome when reports arrive out of order", async () => {
    await declareMetric("late-reports");
    const observerId = String((await addObserver("late-reports", { callbackUrl: "http://l.example/" })).id);
    const stub = metricObject("late-reports");
    await stub.recordDeliveries([
      { observerId, ok: true, data: 1, at: t2 },
      { observerId, ok: false, data: 1, at: t2, error: "newer" },
    ]);
    await stub.recordDeliveries([
      { observerId, ok: true, data: 1, at: t1 },
      { observerId, ok: false, data: 1, at: t1, error: "older" },
    ]);
    expect(await status("late-reports", observerId)).toEqual({
      delivered: 2,
      failed: 2,
      lost: 0,
      lastSuccessAt: "2026-01-02T03:05:05.000Z",
      lastFailureAt: "2026-01-02T03:05:05.000Z",
      lastError: "newer",
    });
  });

  it("ignores outcomes of observers that no longer exist", async () => {
    await declareMetric("gone-observer");
    const observerId = String((await addObserver("gone-observer", { callbackUrl: "http://g.example/" })).id);
    const outcomes: DeliveryOutcome[] = [
      { observerId: "removed-meanwhile", ok: true, data: 5, at: t1 },
      { observerId, ok: true, data: 1, at: t1 },
    ];
    await metricObject("gone-observer").recordDeliveries(outcomes);
    expect(await status("gone-observer", observerId)).toMatchObject({ delivered: 1 });
  });
});

describe("removeObserver", () => {
  it("removes an observer once and reports whether it existed", async () => {
    await declareMetric("gone");
    const kept = await addObserver("gone", { callbackUrl: "http://kept.example/" });
    const removed = await addObserver("gone", { callbackUrl: "http://gone.example/" });
    const stub = metricObject("gone");

    expect(await stub.removeObserver(String(removed.id))).toBe(true);
    expect(await stub.removeObserver(String(removed.id))).toBe(false);
    expect(await stub.observerTarget(String(removed.id))).toBeNull();
    expect(await stub.deliveryTargets("gone")).toEqual([kept]);
    expect((await request("GET", `${observersPath("gone")}/${removed.id}`)).status).toBe(404);
  });
});
