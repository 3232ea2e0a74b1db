import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorkerProcess, type WorkerProcess } from "../../src/local/worker-process.ts";
import { referenceModel, referenceModelStored } from "../support/model.ts";
import { freePort } from "./support/free-port.ts";

let persistTo: string;
let worker: WorkerProcess | undefined;

async function start(): Promise<WorkerProcess> {
  return startWorkerProcess({
    port: await freePort(),
    persistTo,
    vars: { AUTH_DISABLED: "true" },
    stdio: process.env.SHOW_WRANGLER ? "inherit" : "ignore",
  });
}

async function readModel(url: string): Promise<unknown> {
  const response = await fetch(`${url}/v1/resources`);
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  persistTo = await mkdtemp(join(tmpdir(), "tower-edge-kb-"));
});

afterAll(async () => {
  await worker?.stop();
  await rm(persistTo, { recursive: true, force: true });
});

it("keeps the model across a restart on the same on-disk state", async () => {
  worker = await start();
  const upload = await fetch(`${worker.url}/v1/resources`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(referenceModel),
  });
  expect(upload.status).toBe(204);
  const before = await readModel(worker.url);
  expect(before).toEqual(referenceModelStored);

  await worker.stop();
  worker = await start();

  expect(await readModel(worker.url)).toEqual(before);
  const component = await fetch(`${worker.url}/resources/mic1`);
  expect(await component.json()).toEqual({ clazz: "InternalComponent", ...referenceModel.internalComponents[0] });
});
