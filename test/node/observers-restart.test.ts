import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorkerProcess, type WorkerProcess } from "../../src/local/worker-process.ts";
import { freePort } from "./support/free-port.ts";
import { testVars } from "./support/service.ts";

let persistTo: string;
let worker: WorkerProcess | undefined;

async function start(): Promise<WorkerProcess> {
  worker = await startWorkerProcess({
    port: await freePort(),
    persistTo,
    vars: testVars,
    stdio: process.env.SHOW_WRANGLER ? "inherit" : "ignore",
  });
  return worker;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${worker!.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  persistTo = await mkdtemp(join(tmpdir(), "tower-edge-observers-"));
});

afterAll(async () => {
  await worker?.stop();
  await rm(persistTo, { recursive: true, force: true });
});

it("keeps metrics and observers across a restart", async () => {
  const observersPath = "/v1/metrics/FrontendCPUUtilization/observers";
  await start();
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
  await worker!.stop();

  await start();
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
