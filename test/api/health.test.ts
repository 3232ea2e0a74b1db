import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { metricCatalogStub } from "../../src/worker/metrics/metric-catalog";
import { clientAt } from "./support/client";
import { prefixes, request } from "./support/http";
import { uuid } from "./support/metrics";

describe("GET /healthz", () => {
  it.each(prefixes)("answers 200 with the version and the instance id under %o", async (prefix) => {
    const response = await clientAt(prefix).healthz.$get();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: packageJson.version, instance: uuid });
  });

  it("names the same instance in every answer, the one the metric catalog keeps on disk", async () => {
    const kept = await metricCatalogStub(env).instanceId();
    for (const path of ["/healthz", "/v1/healthz", "/healthz/", "/healthz"]) {
      expect(await (await request("GET", path)).json()).toMatchObject({ instance: kept });
    }
  });
});

describe("unknown paths and methods", () => {
  it("answers 404 problem for an unknown path", async () => {
    const response = await request("GET", "/nope");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 404, title: "Resource not found" });
  });

  it("answers a known path with a trailing slash as the path without it, 405 included", async () => {
    expect((await request("GET", "/healthz/")).status).toBe(200);
    const response = await request("DELETE", "/healthz/");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers 405 with Allow for a known path and a wrong method", async () => {
    const response = await request("DELETE", "/v1/healthz");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toMatchObject({ status: 405, type: "urn:tower-edge:problem:method-not-allowed" });
  });
});
