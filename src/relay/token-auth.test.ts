import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { problemOnError } from "../shared/http/problem-handlers.ts";
import { requireToken } from "./token-auth.ts";

const app = new Hono();
app.onError(problemOnError("unhandled error"));
app.get("/", requireToken("the-token"), (c) => c.text("in"));

describe("requireToken", () => {
  it.each(["Bearer the-token", "bearer  the-token "])("lets %j through", async (authorization) => {
    const response = await app.request("/", { headers: { authorization } });

    expect(response.status).toBe(200);
    expect(await response.text()).toBe("in");
  });

  it.each<[string, Record<string, string>]>([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer not-the-token" }],
    ["a token the right one is a prefix of", { authorization: "Bearer the-tokenx" }],
    ["a prefix of the right token", { authorization: "Bearer the-toke" }],
    ["another scheme", { authorization: "Basic the-token" }],
  ])("answers 401 with a challenge for %s", async (_, headers) => {
    const response = await app.request("/", { headers });

    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tower-edge-relay"');
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:unauthorized",
      title: "Unauthorized",
      status: 401,
      detail: "A valid bearer token is required.",
    });
  });
});
