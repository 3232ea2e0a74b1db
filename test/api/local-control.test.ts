import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/worker/app";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { expectProblem, request } from "./support/http";
import { notFoundProblem } from "./support/metrics";

const token = "local-control-token-0123456789";
/** The Worker as the local launcher starts it, with a control token. */
const app = createApp();
const launched = { ...env, LOCAL_CONTROL_TOKEN: token } as Env;

function control(method: string, headers: Record<string, string> = { "x-local-control-token": token }) {
  return app.request("/_local/drain", { method, headers }, launched, createExecutionContext());
}

const noRoute = notFoundProblem("No route matches /_local/drain.");

describe("/_local/drain", () => {
  it("does not exist without a LOCAL_CONTROL_TOKEN", async () => {
    for (const method of ["GET", "POST"]) {
      await expectProblem(await request(method, "/_local/drain"), 404, noRoute);
      await expectProblem(
        await request(method, "/_local/drain", { headers: { "x-local-control-token": "" } }),
        404,
        noRoute,
      );
    }
  });

  it("does not exist for a request without the token, or with another one", async () => {
    for (const method of ["GET", "POST"]) {
      await expectProblem(await control(method, {}), 404, noRoute);
      await expectProblem(await control(method, { "x-local-control-token": `${token}x` }), 404, noRoute);
      await expectProblem(await control(method, { "x-local-control-token": "" }), 404, noRoute);
    }
  });

  it("tells how far a drain is, and the messages queued and batches started, without starting one", async () => {
    const response = await control("GET");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      draining: false,
      intakeRequestsInFlight: 0,
      intakeMessagesInFlight: expect.any(Number),
      batchesInFlight: 0,
      intakeMessagesWritten: expect.any(Number),
      batchesStarted: expect.any(Number),
    });
  });

  it("starts draining: from then on the intake answers 503 with Retry-After", async () => {
    const started = await control("POST");
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ draining: true });
    expect(await (await control("GET")).json()).toMatchObject({ draining: true });

    const body = JSON.stringify(
      rdfJsonBody([{ id: "d1", metric: "drained", timestamp: 1, value: 1, resourceId: "vm1" }]),
    );
    const refused = await request("POST", "/monitoringdata", { body, headers: { "content-type": "application/json" } });
    expect(refused.headers.get("retry-after")).toBe("5");
    await expectProblem(refused, 503, {
      type: "urn:tower-edge:problem:unavailable",
      title: "Service unavailable",
      status: 503,
      detail: "The service is stopping; send the data again shortly.",
    });
    expect((await request("GET", "/metrics/drained")).status).toBe(404);
  });
});
