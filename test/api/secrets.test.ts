import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/worker/app";
import { checkedFetch } from "./support/checked-fetch";
import { sendJson } from "./support/http";
import { declareMetric, listObservers, observersPath } from "./support/metrics";

describe("observer secrets", () => {
  const secret = "never-echo-this-secret-0123456789";
  const metric = "secretive";

  beforeAll(async () => {
    await declareMetric(metric);
  });

  it.each([
    ["an unknown field beside it", { callbackUrl: "https://receiver.example/", secret, extra: secret }],
    ["a bad address", { callbackUrl: secret, secret }],
    ["a protocol mismatch", { protocol: "TCP", callbackUrl: "https://receiver.example/", secret }],
    ["a secret too long", { callbackUrl: "https://receiver.example/", secret: secret.repeat(5) }],
    ["a secret of the wrong type", { callbackUrl: "https://receiver.example/", secret: [secret] }],
  ])("are not echoed in the 400 for %s, and nothing is registered", async (_, body) => {
    const response = await sendJson("POST", observersPath(metric), body);
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain(secret);
    expect(await listObservers(metric)).toEqual([]);
  });
});

describe("an unexpected error", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is answered with a 500 problem that shows no internals", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const app = createApp();
    app.get("/explode", () => {
      throw new Error("db password=hunter2 at /srv/tower/internal.ts:42");
    });

    const response = await checkedFetch(async (request) => app.fetch(request, env))("http://service/explode");

    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:internal",
      title: "Internal server error",
      status: 500,
      detail: "An unexpected error occurred; it has been logged.",
    });
    // The details go to the log, for the operator.
    expect(logged).toHaveBeenCalledWith("unhandled error", expect.stringContaining("hunter2"));
  });
});
