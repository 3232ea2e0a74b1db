import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import packageJson from "../../../package.json";
import { metricCatalogStub } from "../../../src/worker/metrics/metric-catalog";
import { knowledgeBase } from "../../../src/worker/model/knowledge-base";
import { rdfJsonBody } from "../../../tools/testing/monitoring-data";
import { request, sendJson } from "../../api/support/http";
import { emptyModel } from "../../support/model";

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
      const response = await request(method, path, {
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toEqual(notConfigured);
    }
  });

  it.each(["/healthz", "/v1/healthz"])("still answers the health check at %s", async (path) => {
    const response = await request("GET", path);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: packageJson.version, instance: expect.any(String) });
  });

  it.each(["/openapi.json", "/v1/openapi.json", "/docs", "/v1/docs", "/_docs/scalar.js"])(
    "still answers the API's description at %s",
    async (path) => {
      const response = await request("GET", path);
      expect(response.status).toBe(200);
      await response.body?.cancel();
    },
  );

  it.each(["/", "/ui/dashboard.js"])("still answers the dashboard at %s", async (path) => {
    const response = await request("GET", path);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it("stores and registers nothing it was sent", async () => {
    const upload = await sendJson("PUT", "/resources", { cloudProviders: [{ id: "amazon", type: "IaaS" }] });
    const intake = await sendJson("POST", "/monitoringdata", monitoringData);
    expect([upload.status, intake.status]).toEqual([503, 503]);
    expect(await knowledgeBase(env).readModel()).toEqual(emptyModel);
    expect(await metricCatalogStub(env).names()).toEqual([]);
  });
});
