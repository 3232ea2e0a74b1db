import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/worker/app";
import { metricStub } from "../../src/worker/metrics/metric-object";
import { checkedFetch } from "./support/checked-fetch";
import { request, sendJson } from "./support/http";
import { declareMetric, listObservers, observersPath, uuid } from "./support/metrics";

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

describe("a generated secret", () => {
  const metric = "generated";
  const callbackUrl = "https://generated.example/";
  const decodedLength = (secret: unknown) => atob(String(secret).slice("whsec_".length)).length;

  beforeAll(async () => {
    await declareMetric(metric);
  });

  it('is made for "generate", shown once in the 201, and signs the deliveries', async () => {
    const response = await sendJson("POST", observersPath(metric), { callbackUrl, secret: "generate" });
    expect(response.status).toBe(201);
    const created = await response.json<Record<string, unknown>>();
    expect(created).toEqual({
      id: uuid,
      format: "RDF/JSON",
      protocol: "HTTP",
      callbackUrl,
      state: "active",
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    expect(decodedLength(created.secret)).toBe(24);

    const shown = [
      await (await request("GET", observersPath(metric))).text(),
      await (await request("GET", `${observersPath(metric)}/${created.id}`)).text(),
    ];
    for (const text of shown) {
      expect(text).not.toContain(String(created.secret));
      expect(text).not.toContain('"secret"');
    }
    const [plan] = (await metricStub(env, metric).deliveryPlan(metric)).observers;
    expect(plan?.target.secrets).toEqual([created.secret]);
  });

  it("is made anew for a registration of the same target, which rotates the secret", async () => {
    const first = await (await sendJson("POST", observersPath(metric), { callbackUrl, secret: "generate" })).json<{
      secret: string;
    }>();
    const again = await sendJson("POST", observersPath(metric), { callbackUrl, secret: "generate" });
    expect(again.status).toBe(200);
    const second = await again.json<{ secret: string }>();
    expect(decodedLength(second.secret)).toBe(24);
    expect(second.secret).not.toBe(first.secret);

    const [plan] = (await metricStub(env, metric).deliveryPlan(metric)).observers;
    expect(plan?.target.secrets).toEqual([second.secret, first.secret]);
    const own = await sendJson("POST", observersPath(metric), { callbackUrl, secret: "an-own-secret-0123456789" });
    expect(await own.json()).not.toHaveProperty("secret");
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
