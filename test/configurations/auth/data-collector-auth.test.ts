import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workerFetch } from "../../api/support/checked-fetch";
import { encodedStream, javaAppRegistration } from "../../support/data-collectors";
import { tokens } from "./requests";

/*
 * The data collectors' routes as deployed: the original's collectors send no credentials, so they
 * present the token in the path prefix `/c/<token>/`, which the stream address they are handed
 * carries on. Paths under the prefix are outside the OpenAPI document's servers, so they go to the
 * Worker directly.
 */

function direct(method: string, path: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`http://service${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
}

function withBearer(method: string, path: string, token?: string): Promise<Response> {
  return workerFetch(`http://service${path}`, {
    method,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
}

describe("the data collectors' routes with authentication on", () => {
  it("take an ingest token in the path, and hand it on in the stream address", async () => {
    const registered = await direct("POST", `/c/${tokens.ingest}/v1/data-collectors`, javaAppRegistration);
    expect(registered.status).toBe(201);
    const { id } = (await registered.json()) as { id: string };
    expect((await direct("GET", `/c/${tokens.ingest}/v1/data-collectors/${id}/keepalive`)).status).toBe(204);
    const installed = await workerFetch("http://service/v1/monitoring-rules", {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" },
      body: JSON.stringify({
        monitoringRules: [
          {
            id: "auth-collected",
            timeStep: 60,
            timeWindow: 60,
            monitoredTargets: [{ class: "Method" }],
            collectedMetric: { metricName: "ResponseTime" },
            actions: [{ name: "OutputMetric", parameters: { metric: "AuthCollected" } }],
          },
        ],
      }),
    });
    expect(installed.status).toBe(204);
    const answer = await direct("GET", `/c/${tokens.ingest}/data-collectors/${id}/configuration`);
    const configuration = (await answer.json()) as Record<string, { daUrl: string }[]>;
    const daUrl = configuration.ResponseTime?.[0]?.daUrl ?? "";
    expect(daUrl).toBe(`http://service/c/${tokens.ingest}/streams/${encodedStream("ResponseTime")}`);
    const sent = await direct("POST", new URL(daUrl).pathname, [
      { resourceId: "register_2047568", metric: "ResponseTime", value: 1 },
    ]);
    expect(sent.status).toBe(200);
  });

  it("take an admin token in the path too", async () => {
    expect((await direct("GET", `/c/${tokens.admin}/v1/required-metrics`)).status).toBe(200);
  });

  it("refuse a wrong token in the path, or none", async () => {
    expect((await direct("POST", "/c/wrong/v1/data-collectors", {})).status).toBe(401);
    expect((await withBearer("GET", "/v1/data-collectors")).status).toBe(401);
  });

  it("take an ingest token as a bearer token", async () => {
    expect((await withBearer("GET", "/v1/data-collectors", tokens.ingest)).status).toBe(200);
    expect((await withBearer("GET", "/v1/required-metrics", tokens.ingest)).status).toBe(200);
  });

  it("serve nothing else under the prefix, and the dashboard's view needs the admin role", async () => {
    expect((await direct("GET", `/c/${tokens.ingest}/v1/resources`)).status).toBe(403);
    expect((await direct("GET", `/c/${tokens.admin}/v1/resources`)).status).toBe(404);
    expect((await withBearer("GET", "/v1/data-collector-states", tokens.ingest)).status).toBe(403);
    expect((await withBearer("GET", "/v1/data-collector-states", tokens.admin)).status).toBe(200);
  });
});
