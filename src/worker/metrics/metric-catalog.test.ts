import { runInDurableObject } from "cloudflare:test";
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

it("draws the service's instance id once and keeps it on disk, where the catalog reads it again after a restart", async () => {
  const id = await metricCatalogStub(env).instanceId();
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const stored = await runInDurableObject(metricCatalogStub(env), (_, state) =>
    state.storage.sql.exec<{ id: string }>("SELECT id FROM instance").toArray(),
  );
  expect(stored).toEqual([{ id }]);

  // The object is torn down, its memory with it; the next call builds it anew from its storage.
  await expect(runInDurableObject(metricCatalogStub(env), (_, state) => state.abort("restart"))).rejects.toThrow();

  expect(await metricCatalogStub(env).instanceId()).toBe(id);
});

it("gives another service, with storage of its own, an id of its own", async () => {
  const another = env.METRIC_CATALOG.getByName("another-service");

  expect(await another.instanceId()).not.toBe(await metricCatalogStub(env).instanceId());
});
