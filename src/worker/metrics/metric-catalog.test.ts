import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { prefixes, request } from "../../../test/api/support/http";
import { declareMetric, metricPath } from "../../../test/api/support/metrics";
import { metricCatalogStub } from "./metric-catalog";
import { metricStub } from "./metric-object";

// This file owns its storage, so GET /metrics shows exactly the metrics created here.

async function metricNames(prefix = ""): Promise<unknown> {
  const response = await request("GET", `${prefix}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

it("lists declared metrics and metrics created by data, sorted, under both prefixes", async () => {
  for (const prefix of prefixes) expect(await metricNames(prefix)).toEqual([]);

  for (const name of ["memory", "CPU", "cpu.load", "Zeta", "cpu", "élan"]) await declareMetric(name);
  await metricStub(env, "from-data").ensureMetric("from-data");

  const sorted = ["CPU", "Zeta", "cpu", "cpu.load", "from-data", "memory", "élan"];
  for (const prefix of prefixes) expect(await metricNames(prefix)).toEqual(sorted);
});

it("drops a deleted metric from the list, and lists it again once it is re-created", async () => {
  await declareMetric("transient");
  expect(await metricNames()).toContain("transient");

  expect((await request("DELETE", metricPath("transient"))).status).toBe(204);
  expect(await metricNames()).not.toContain("transient");

  await metricStub(env, "transient").deliveryPlan("transient");
  expect(await metricNames()).toContain("transient");
});

it("is not asked again about a metric it already lists", async () => {
  await declareMetric("listed-once");
  // Take the name out of the catalog behind the metric's back: a metric that exists and was
  // listed must not call the catalog again, however often it is touched.
  await metricCatalogStub(env).remove("listed-once");
  await metricStub(env, "listed-once").ensureMetric("listed-once");
  await metricStub(env, "listed-once").deliveryPlan("listed-once");
  expect(await metricNames()).not.toContain("listed-once");
});
