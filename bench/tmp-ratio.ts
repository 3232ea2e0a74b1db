import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkerProcess } from "../src/local/worker-process.ts";
import { freePort } from "../test/node/support/free-port.ts";
import { rdfJsonBody } from "../test/support/monitoring-data.ts";
import { runLoad } from "./load.ts";
const worker = await startWorkerProcess({ port: await freePort(), persistTo: await mkdtemp(join(tmpdir(), "b-")), stdio: "ignore", vars: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true" } });
const bodies = Array.from({ length: 500 }, (_, i) => JSON.stringify(rdfJsonBody([{ id: `d${i}`, metric: "m", timestamp: 1, value: 1, resourceId: "r" }])));
const go = (m: "GET" | "POST", path: string, b?: string[]) => runLoad({ url: worker.url + path, method: m, bodies: b, expectedStatus: m === "GET" ? 200 : 204, concurrency: 32, seconds: 5 });
await go("POST", "/monitoringdata", bodies);
for (let i = 0; i < 2; i++) {
  const h = await go("GET", "/healthz");
  const p = await go("POST", "/monitoringdata", bodies);
  console.log(h.perSecond.toFixed(0), p.perSecond.toFixed(0), (p.perSecond / h.perSecond).toFixed(2), p.errors);
}
await worker.stop();
