import { afterAll, expect, it } from "vitest";
import { type Service, startService } from "./support/service.ts";

let service: Service | undefined;

afterAll(async () => {
  await service?.stop();
});

it("keeps metrics and observers across a restart", async () => {
  const observersPath = "/v1/metrics/FrontendCPUUtilization/observers";
  service = await startService();
  const call = service.call;
  expect((await call("PUT", "/v1/metrics/FrontendCPUUtilization", { unit: "percent" })).status).toBe(201);
  const graphite = await call("POST", observersPath, {
    format: "GRAPHITE",
    protocol: "TCP",
    observerHost: "127.0.0.1",
    observerPort: 2003,
  });
  expect(graphite.status).toBe(201);
  const webhook = await call("POST", observersPath, {
    callbackUrl: "http://127.0.0.1:9/hook",
    secret: "0123456789abcdef",
  });
  expect(webhook.status).toBe(201);
  await service.restart();

  expect(await call("GET", "/metrics")).toEqual({ status: 200, body: ["FrontendCPUUtilization"] });
  expect(await call("GET", "/metrics/FrontendCPUUtilization")).toEqual({
    status: 200,
    body: { id: "FrontendCPUUtilization", unit: "percent", observers: 2 },
  });
  expect(await call("GET", `${observersPath}/${graphite.body.id}`)).toEqual({
    status: 200,
    body: {
      id: graphite.body.id,
      format: "GRAPHITE",
      protocol: "TCP",
      observerHost: "127.0.0.1",
      observerPort: 2003,
      status: { delivered: 0, failed: 0, lost: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null },
    },
  });
  expect(await call("GET", observersPath)).toEqual({ status: 200, body: [graphite.body, webhook.body] });
  // Registration stays idempotent across the restart: the same target finds the stored observer.
  const sameTarget = { format: "graphite", protocol: "tcp", observerHost: "127.0.0.1", observerPort: 2003 };
  expect(await call("POST", observersPath, sameTarget)).toEqual({ status: 200, body: graphite.body });
});
