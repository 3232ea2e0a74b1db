import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../config";
import type { Datum } from "../intake/datum";
import { type MetricObject, metricStub } from "../metrics/metric-object";
import { usage } from "../ops/usage";
import { maxDataPerPayload, runDeliveryJobs } from "./fan-out";

function data(count: number, metric: string): Datum[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `d${index}`,
    metric,
    timestamp: index,
    value: index,
    resourceId: "r",
  }));
}

const noRelay = "no relay configured (RELAY_URL)";

/** Without a relay every TCP delivery fails, without any network. */
const withoutRelay = () => ({ ...readConfig(env), RELAY_URL: "" });

async function tcpObserver(metric: string): Promise<string> {
  await metricStub(env, metric).declareMetric(metric, {});
  const registration = await metricStub(env, metric).registerObserver(
    { format: "GRAPHITE", protocol: "TCP", observerHost: "127.0.0.1", observerPort: 2003 },
    10,
  );
  if (registration.outcome !== "created") throw new Error(`observer of ${metric} not created: ${registration.outcome}`);
  return registration.observer.id;
}

/** What `work` returns, and the Durable Object requests it made. */
async function counting<T>(work: () => Promise<T>): Promise<{ value: T; requests: number }> {
  const before = usage.durableObjectRequests;
  const value = await work();
  return { value, requests: usage.durableObjectRequests - before };
}

describe("runDeliveryJobs", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("splits a job larger than one payload into bounded payloads, and reports each one undelivered on its own", async () => {
    const metric = "sliced";
    await tcpObserver(metric);

    const undelivered = await runDeliveryJobs(env, withoutRelay(), [
      { metric, data: data(2 * maxDataPerPayload + 5, metric), attempts: 0 },
    ]);

    expect(undelivered.map((item) => item.data.length)).toEqual([maxDataPerPayload, maxDataPerPayload, 5]);
    expect(undelivered.every((item) => item.attempts === 1 && item.error === noRelay)).toBe(true);
    expect(new Set(undelivered.map((item) => item.webhookId)).size).toBe(3);
  });

  it("delivers nothing and owes nothing for a metric without observers, which it creates", async () => {
    const { value, requests } = await counting(() =>
      runDeliveryJobs(env, readConfig(env), [{ metric: "unobserved", data: data(3, "unobserved"), attempts: 0 }]),
    );
    expect(value).toEqual([]);
    expect(requests).toBe(1);
    expect(await metricStub(env, "unobserved").describeMetric()).toEqual({ id: "unobserved", observers: 0 });
  });

  it("looks an observer up once for all its retry jobs, and returns each job's data on its own", async () => {
    const metric = "shared-look-up";
    const observerId = await tcpObserver(metric);
    const [first, second] = [data(2, metric), data(3, metric).map((datum) => ({ ...datum, id: `late-${datum.id}` }))];

    const { value, requests } = await counting(() =>
      runDeliveryJobs(env, withoutRelay(), [
        { metric, observerId, webhookId: "msg_a", data: first!, attempts: 1 },
        { metric, observerId, webhookId: "msg_b", data: second!, attempts: 4 },
      ]),
    );

    expect(requests).toBe(2);
    expect(value).toEqual([
      { metric, observerId, webhookId: "msg_a", data: first, attempts: 2, error: noRelay },
      { metric, observerId, webhookId: "msg_b", data: second, attempts: 5, error: noRelay },
    ]);
    expect((await metricStub(env, metric).observerReport(observerId))?.status).toMatchObject({
      failed: 2,
      lastError: noRelay,
    });
  });

  it("owes nothing to an observer removed since its data were queued", async () => {
    const metric = "removed-since";
    const observerId = await tcpObserver(metric);
    await metricStub(env, metric).removeObserver(observerId);

    const { value, requests } = await counting(() =>
      runDeliveryJobs(env, withoutRelay(), [
        { metric, observerId, webhookId: "msg_r", data: data(2, metric), attempts: 1 },
      ]),
    );
    expect(value).toEqual([]);
    expect(requests).toBe(1);
  });

  it("returns a job whose observers cannot be looked up whole, with one more attempt and the reason", async () => {
    const unreachable = { deliveryTargets: () => Promise.reject(new Error("storage down")) };
    vi.spyOn(env.METRIC, "get").mockReturnValue(unreachable as unknown as DurableObjectStub<MetricObject>);
    const owed = data(2, "unreachable");

    const undelivered = await runDeliveryJobs(env, readConfig(env), [
      { metric: "unreachable", data: owed, attempts: 2 },
    ]);

    expect(undelivered).toEqual([
      { metric: "unreachable", data: owed, attempts: 3, error: "observer look-up failed: storage down" },
    ]);
  });
});
