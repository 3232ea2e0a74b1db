import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { metricCatalogStub } from "../metrics/metric-catalog";
import { instanceId } from "./instance-id";

it("is the id the metric catalog keeps, the same for every caller", async () => {
  const kept = await metricCatalogStub(env).instanceId();

  const read = await Promise.all([instanceId(env), instanceId(env), instanceId(env)]);

  expect(read).toEqual([kept, kept, kept]);
  expect(await instanceId(env)).toBe(kept);
});
