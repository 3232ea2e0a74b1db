// temporary diagnostic (removed before hand-off)
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkerProcess } from "../src/local/worker-process.ts";
import { readRelayConfig } from "../src/relay/config.ts";
import { startRelay } from "../src/relay/relay.ts";
import { freePort } from "../test/node/support/free-port.ts";
import { awaitProbe } from "./delivery.ts";
import { startLatencyReceiver, type Protocol } from "./receivers.ts";
import { towerEdge } from "./tower-edge.ts";
import { rdfJsonBody } from "../test/support/monitoring-data.ts";

const protocol = (process.env.P ?? "TCP") as Protocol;
const observers = Number(process.env.N ?? 1);
const token = randomBytes(24).toString("base64url");
const relay = await startRelay(readRelayConfig({ RELAY_PORT: "0", RELAY_TOKEN: token, RELAY_ALLOW_PRIVATE: "true" }));
const worker = await startWorkerProcess({ port: await freePort(), persistTo: await mkdtemp(join(tmpdir(), "diag-")), stdio: "ignore",
  vars: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true", RELAY_URL: relay.url, RELAY_TOKEN: token } });
const system = towerEdge(worker.url);
const metric = "diag";
const receivers = await Promise.all(Array.from({ length: observers }, () => startLatencyReceiver(protocol, metric)));
await system.observe(metric, receivers);
console.log("settle", await awaitProbe(system, metric, receivers, 60));
const statuses = new Map<number, number>();
let seq = 0;
const t0 = performance.now();
const answers: Promise<void>[] = [];
for (let i = 0; i < 800; i++) {
  const wait = t0 + i * 5 - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  const now = Date.now();
  const data = Array.from({ length: 100 }, () => ({ id: `d${seq}`, metric, timestamp: now, value: now, resourceId: String(seq++) }));
  answers.push(fetch(`${worker.url}/monitoringdata`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(rdfJsonBody(data)) }).then(async (r) => {
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status !== 204) console.log(r.status, (await r.text()).slice(0, 300));
  }));
}
await Promise.all(answers);
console.log("statuses", statuses);
for (let s = 0; s < 40; s++) {
  await new Promise((r) => setTimeout(r, 1000));
  console.log(s, receivers.map((r) => r.recorder.distinct).join(","));
  if (receivers.every((r) => r.recorder.distinct >= seq)) break;
}
const list = await (await fetch(`${worker.url}/v1/metrics/${metric}/observers`)).json() as { id: string }[];
for (const o of list) console.log(JSON.stringify(await (await fetch(`${worker.url}/v1/metrics/${metric}/observers/${o.id}`)).json()));
await worker.stop(); await relay.close();
process.exit(0);
