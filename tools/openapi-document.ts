/**
 * `npm run openapi:lint`, first step: writes the API's OpenAPI document, as the Worker serves it
 * at /openapi.json, to the file named by the first argument. The document is built from the route
 * modules, which only run in workerd, so the Worker is started under `wrangler dev` to ask it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startWorkerProcess } from "./start/worker-process.ts";
import { freePort } from "./testing/free-port.ts";

async function main(target: string): Promise<void> {
  const persistTo = await mkdtemp(join(tmpdir(), "tower-edge-openapi-"));
  const worker = await startWorkerProcess({ port: await freePort(), persistTo, stdio: "ignore" });
  try {
    const response = await fetch(`${worker.url}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(await response.json(), null, 2)}\n`);
  } finally {
    await worker.stop();
    await rm(persistTo, { recursive: true, force: true });
  }
}

const target = process.argv[2];
if (!target) throw new Error("usage: tsx tools/openapi-document.ts <file>");
await main(target);
