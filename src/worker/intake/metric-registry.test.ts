import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { usage } from "../common/usage";
import { metricCatalogStub } from "../metrics/metric-catalog";
import { metricStub } from "../metrics/metric-object";
import { forgetMetric, registerMetrics } from "./metric-registry";

/** The Durable Object requests `work` makes. */
async function requestsOf(work: () => Promise<unknown>): Promise<number> {
  const before = usage.durableObjectRequests;
  await work();
  return usage.durableObjectRequests - before;
}

describe("registerMetrics", () => {
  it("creates each new metric in its object, which lists it in the catalog", async () => {
    expect(await requestsOf(() => registerMetrics(env, ["registry.cpu", "registry.mem"]))).toBe(2);
    expect(await metricStub(env, "registry.cpu").describeMetric()).toMatchObject({ id: "registry.cpu", observers: 0 });
    expect(await metricStub(env, "registry.mem").describeMetric()).toMatchObject({ id: "registry.mem", observers: 0 });
    expect(await metricCatalogStub(env).names()).toEqual(expect.arrayContaining(["registry.cpu", "registry.mem"]));
  });

  it("makes no Durable Object request for a metric it registered before", async () => {
    await registerMetrics(env, ["known"]);
    expect(await requestsOf(() => registerMetrics(env, ["known"]))).toBe(0);
    expect(await requestsOf(() => registerMetrics(env, ["known", "unseen"]))).toBe(1);
    expect(await metricStub(env, "unseen").describeMetric()).toMatchObject({ id: "unseen", observers: 0 });
  });

  it("leaves a declared metric's description and unit as they are", async () => {
    await metricStub(env, "declared").declareMetric("declared", { description: "CPU load", unit: "%" });
    await registerMetrics(env, ["declared"]);
    expect(await metricStub(env, "declared").describeMetric()).toMatchObject({
      id: "declared",
      description: "CPU load",
      unit: "%",
      observers: 0,
    });
  });
});

describe("forgetMetric", () => {
  it("makes the next registration ask the metric's object again, which re-creates a deleted metric", async () => {
    await registerMetrics(env, ["deleted"]);
    expect(await metricStub(env, "deleted").deleteMetric()).toBe(true);
    forgetMetric("deleted");

    expect(await requestsOf(() => registerMetrics(env, ["deleted"]))).toBe(1);
    expect(await metricStub(env, "deleted").describeMetric()).toMatchObject({ id: "deleted", observers: 0 });
    expect(await metricCatalogStub(env).names()).toContain("deleted");
    expect(await requestsOf(() => registerMetrics(env, ["deleted"]))).toBe(0);
  });

  it("leaves the other metrics known", async () => {
    await registerMetrics(env, ["kept", "forgotten"]);
    forgetMetric("forgotten");
    expect(await requestsOf(() => registerMetrics(env, ["kept", "forgotten"]))).toBe(1);
  });
});
