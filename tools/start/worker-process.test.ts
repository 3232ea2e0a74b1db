import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorkerProcess, type WorkerProcess } from "./worker-process.ts";
import { freePort } from "../testing/free-port.ts";

let persistTo: string;
let worker: WorkerProcess;

beforeAll(async () => {
  persistTo = await mkdtemp(join(tmpdir(), "tower-edge-"));
  worker = await startWorkerProcess({ port: await freePort(), persistTo, stdio: "ignore" });
});

afterAll(async () => {
  await worker?.stop();
  await rm(persistTo, { recursive: true, force: true });
});

it("serves /healthz under wrangler dev", async () => {
  const response = await fetch(`${worker.url}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok" });
});
