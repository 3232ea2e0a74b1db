import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import packageJson from "../../../package.json";
import { knowledgeBase } from "../../../src/worker/model/knowledge-base";
import { metricCatalogStub } from "../../../src/worker/metrics/metric-catalog";
import { rdfJsonBody } from "../../../tools/testing/monitoring-data";

const notConfigured = {
  type: "urn:tower-edge:problem:not-configured",
  title: "Service not configured",
  status: 503,
  detail:
    "Authentication is not configured: set the ADMIN_TOKEN and/or INGEST_TOKEN secrets (comma-separated tokens), " +
    "or AUTH_DISABLED=true to run without authentication (local development only).",
};

const monitoringData = rdfJsonBody([{ id: "d1", metric: "cpu", timestamp: 1, value: 1, resourceId: "vm1" }]);

describe("a service with neither tokens nor AUTH_DISABLED", () => {
  it.each([
    ["GET", "/resources", undefined],
    ["PUT", "/v1/resources", {}],
    ["GET", "/metrics", undefined],
    ["PUT", "/v1/metrics/cpu", undefined],
    ["POST", "/metrics/cpu/observers", { callbackUrl: "https://receiver.example/hook" }],
    ["POST", "/monitoringdata", monitoringData],
    ["POST", "/v1/results", monitoringData],
    ["GET", "/nope", undefined],
    ["DELETE", "/v1/healthz/extra", undefined],
  ])("answers %s %s with 503, with or without a token", async (method, path, body) => {
    for (const authorization of [undefined, "Bearer some-token"]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization) headers.authorization = authorization;
      const response = await exports.default.fetch(`http://service${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toEqual(notConfigured);
    }
  });

  it.each(["/healthz", "/v1/healthz"])("still answers the health check at %s", async (path) => {
    const response = await exports.default.fetch(`http://service${path}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: packageJson.version });
  });

  it("stores and registers nothing it was sent", async () => {
    const upload = await exports.default.fetch("http://service/resources", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cloudProviders: [{ id: "amazon", type: "IaaS" }] }),
    });
    const intake = await exports.default.fetch("http://service/monitoringdata", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(monitoringData),
    });
    expect([upload.status, intake.status]).toEqual([503, 503]);
    expect(await knowledgeBase(env).readModel()).toEqual({
      cloudProviders: [],
      internalComponents: [],
      methods: [],
      vMs: [],
    });
    expect(await metricCatalogStub(env).names()).toEqual([]);
  });
});
