import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { problemOnError } from "../../shared/http/problem-handlers";
import type { AppEnv } from "./app-env";
import { queryParams } from "./path-params";
import { judgesQuery, refuseUnknownQuery } from "./query-check";

const app = new Hono<AppEnv>()
  .use(refuseUnknownQuery)
  .get("/items", queryParams(z.object({ limit: z.string().optional(), format: z.string().optional() })), (c) =>
    c.text("items"),
  )
  .get("/plain", (c) => c.text("plain"))
  .post("/write", (c) => c.text("written"));
app.onError(problemOnError("unhandled error"));

async function errorsOf(path: string, method = "GET") {
  const response = await app.request(path, { method });
  expect(response.status).toBe(400);
  return ((await response.json()) as { errors: unknown[] }).errors;
}

describe("refuseUnknownQuery", () => {
  it("lets through the parameters the route's validator names, and no query at all", async () => {
    for (const path of ["/items", "/items?", "/items?limit=5&format=x", "/plain"]) {
      expect((await app.request(path)).status, path).toBe(200);
    }
  });

  it("refuses a misspelt parameter with the name probably meant", async () => {
    expect(await errorsOf("/items?limt=5")).toEqual([
      { path: "/limt", message: 'Unknown query parameter; did you mean "limit"?' },
    ]);
  });

  it("names the parameters a route takes when nothing is near, and says when it takes none", async () => {
    expect(await errorsOf("/items?limit=1&sort=asc&sort=desc")).toEqual([
      { path: "/sort", message: "Unknown query parameter; this route takes limit, format." },
    ]);
    expect(await errorsOf("/plain?limit=1")).toEqual([
      { path: "/limit", message: "Unknown query parameter; this route takes none." },
    ]);
  });

  it("leaves the agents' routes their clients' parameters, and an unknown path its 404", async () => {
    expect((await app.request("/write?db=telegraf&u=x&p=y&precision=ms", { method: "POST" })).status).toBe(200);
    expect((await app.request("/nowhere?limt=5")).status).toBe(404);
  });
});

describe("judgesQuery", () => {
  it.each(["/metrics", "/v1/metrics/cpu/data", "/monitoring-rules/r1", "/openapi.json"])("judges %s", (path) => {
    expect(judgesQuery(path)).toBe(true);
  });

  it.each([
    "/write",
    "/v1/query",
    "/ping",
    "/api/v2/write",
    "/api/v1/write",
    "/otlp/v1/metrics/",
    "/",
    "/ui/dashboard.js",
    "/_docs/scalar.js",
  ])("leaves %s alone", (path) => {
    expect(judgesQuery(path)).toBe(false);
  });
});
