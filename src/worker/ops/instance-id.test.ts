import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { metricCatalogStub } from "../metrics/metric-catalog";
import { instanceId, knownInstanceId } from "./instance-id";

it("is the id the metric catalog keeps, the same for every caller, and known once read", async () => {
  const kept = await metricCatalogStub(env).instanceId();

  const read = await Promise.all([instanceId(env), instanceId(env), instanceId(env)]);

  expect(read).toEqual([kept, kept, kept]);
  expect(knownInstanceId()).toBe(kept);
  expect(await instanceId(env)).toBe(kept);
});
