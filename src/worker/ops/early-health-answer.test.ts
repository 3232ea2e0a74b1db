import { env as bindings } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { metricCatalogStub } from "../metrics/metric-catalog";
import { earlyHealthAnswer } from "./early-health-answer";

const env = { ...bindings, AUTH_DISABLED: "true" };
const app = createApp();

// The early answer waits for the isolate to know its instance id, which the app's answer reads.
beforeAll(async () => {
  expect((await app.request("/healthz", {}, env)).status).toBe(200);
});

/** What a client sees of an answer. */
async function seen(answer: Response) {
  return { status: answer.status, headers: [...answer.headers], body: await answer.text() };
}

describe("earlyHealthAnswer", () => {
  it.each(["/healthz", "/healthz/", "/v1/healthz", "/v1/healthz/"])(
    "answers GET %s exactly as the app does",
    async (path) => {
      const url = `http://tower.example${path}`;

      const early = earlyHealthAnswer(new Request(url), env);

      expect(early).toBeDefined();
      expect(await seen(early!)).toEqual(await seen(await app.request(url, {}, env)));
    },
  );

  it.each([
    ["HEAD", "/healthz"],
    ["POST", "/healthz"],
    ["GET", "/healthz?verbose=1"],
    ["GET", "/healthz?"],
    ["GET", "/healthzz"],
    ["GET", "/v2/healthz"],
    ["GET", "//healthz"],
    ["GET", "/c/token/healthz"],
  ])("leaves %s %s to the app", (method, path) => {
    expect(earlyHealthAnswer(new Request(`http://tower.example${path}`, { method }), env)).toBeUndefined();
  });

  it("names the service's instance, as its catalog keeps it", async () => {
    const early = earlyHealthAnswer(new Request("http://tower.example/healthz"), env);

    expect(await early?.json()).toMatchObject({ status: "ok", instance: await metricCatalogStub(env).instanceId() });
  });

  it("leaves the health check to the app while a setting is not valid, which answers it 503", () => {
    expect(earlyHealthAnswer(new Request("http://tower.example/healthz"), { MAX_BODY_BYTES: "1MB" })).toBeUndefined();
  });

  it("answers only what the app answers the same, whatever the method and path", async () => {
    const segment = fc.constantFrom("healthz", "v1", "", "c", "metrics", "healthz?", "?a=1", "%2e", "HEALTHZ");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"),
        fc.array(segment, { maxLength: 4 }),
        async (method, segments) => {
          const url = `http://tower.example/${segments.join("/")}`;
          const early = earlyHealthAnswer(new Request(url, { method }), env);
          if (early === undefined) return;
          expect(await seen(early)).toEqual(await seen(await app.request(url, { method }, env)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
