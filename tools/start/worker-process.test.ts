import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { referenceModel, referenceModelStored } from "../../test/support/model.ts";
import { freePort } from "../testing/free-port.ts";
import { startLocalWorker } from "./local-worker.ts";
import { projectRoot } from "./project.ts";
import { filesContaining } from "./testing/files-containing.ts";
import { startWorkerProcess, type WorkerProcess } from "./worker-process.ts";

/* The Worker under `wrangler dev`, as `npm run dev` runs it. */

const since = Date.now();
const secret = `dev-test-${randomBytes(12).toString("hex")}`;
let persistTo: string;
let worker: WorkerProcess;

beforeAll(async () => {
  persistTo = await mkdtemp(join(tmpdir(), "tower-edge-"));
  worker = await startWorkerProcess({
    port: await freePort(),
    persistTo,
    vars: { AUTH_DISABLED: "true", MAX_BODY_BYTES: "2048", RELAY_TOKEN: secret },
    stdio: "ignore",
  });
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

it("gives the Worker its vars without writing them to a file", async () => {
  const response = await fetch(`${worker.url}/monitoringdata`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ padding: "x".repeat(3000) }),
  });
  expect(response.status).toBe(413);
  expect([
    ...filesContaining(tmpdir(), secret, since),
    ...filesContaining(join(projectRoot, ".wrangler", "tmp"), secret, since),
  ]).toEqual([]);
});

it("keeps its data where npm start finds them", async () => {
  const put = await fetch(`${worker.url}/v1/resources`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(referenceModel),
  });
  expect(put.status).toBe(204);
  expect(await (await fetch(`${worker.url}/v1/resources`)).json()).toEqual(referenceModelStored);
  await worker.stop();

  const local = await startLocalWorker({
    port: 0,
    stateDir: persistTo,
    bindings: { AUTH_DISABLED: "true" },
    verbose: false,
  });
  try {
    expect(await (await fetch(`${local.url}/v1/resources`)).json()).toEqual(referenceModelStored);
  } finally {
    await local.dispose();
  }
});
