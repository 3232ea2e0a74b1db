import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../tools/testing/free-port.ts";
import { eventually, type Service, startService } from "../support/service.ts";
import { observeInTowerJson, type TowerObserver } from "../support/tower-observer.ts";

/*
 * Debian's Prometheus in agent mode scrapes a target this test serves and remote-writes what it
 * scraped to the service, with the ingest token as its `authorization` credentials: the samples
 * must reach an HTTP observer as data of the scraped metric, keyed by the instance.
 */

const prometheus = "/usr/bin/prometheus";
const hasPrometheus = await import("node:fs").then(({ existsSync }) => existsSync(prometheus));
if (!hasPrometheus) {
  console.warn("Prometheus remote-write tests skipped: no /usr/bin/prometheus (.ci/run installs Debian's prometheus).");
}

const exposition = [
  "# TYPE tower_agent_temperature gauge",
  'tower_agent_temperature{room="lab"} 21.5',
  "# TYPE tower_agent_requests_total counter",
  'tower_agent_requests_total{code="200",path="/a b"} 1027',
  "",
].join("\n");

let service: Service;
let target: Server;
let agent: ChildProcess | undefined;
let agentDirectory: string;
let temperature: TowerObserver;
let requests: TowerObserver;

function serveTarget(): Promise<Server> {
  const server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    response.end(exposition);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function startAgent(targetPort: number): Promise<ChildProcess> {
  agentDirectory = await mkdtemp(join(tmpdir(), "tower-prometheus-"));
  const config = join(agentDirectory, "prometheus.yml");
  await writeFile(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "scrape_configs:",
      "  - job_name: lab",
      "    static_configs:",
      `      - targets: ["127.0.0.1:${targetPort}"]`,
      "remote_write:",
      `  - url: ${service.url}/api/v1/write`,
      "    authorization:",
      "      credentials: ingest-e2e",
      "    queue_config:",
      "      batch_send_deadline: 1s",
      "",
    ].join("\n"),
  );
  const child = spawn(
    prometheus,
    [
      "--enable-feature=agent",
      `--config.file=${config}`,
      `--storage.agent.path=${join(agentDirectory, "wal")}`,
      `--web.listen-address=127.0.0.1:${await freePort()}`,
    ],
    { stdio: ["ignore", "ignore", process.env.SHOW_WORKER ? "inherit" : "ignore"] },
  );
  return child;
}

beforeAll(async () => {
  if (!hasPrometheus) return;
  service = await startService({ AUTH_DISABLED: "false", ADMIN_TOKEN: "admin-e2e", INGEST_TOKEN: "ingest-e2e" });
  temperature = await observeInTowerJson(service, "tower_agent_temperature");
  requests = await observeInTowerJson(service, "tower_agent_requests_total");
  target = await serveTarget();
  agent = await startAgent((target.address() as AddressInfo).port);
});

afterAll(async () => {
  agent?.kill("SIGTERM");
  target?.close();
  await temperature?.receiver.close();
  await requests?.receiver.close();
  await service?.stop();
  if (agentDirectory) await rm(agentDirectory, { recursive: true, force: true });
});

describe.skipIf(!hasPrometheus)("Prometheus (agent mode) remote write", () => {
  it("delivers the scraped samples to the metric's observers, keyed by instance and sorted labels", async () => {
    const instance = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    const [gauge] = await eventually(() => temperature.data().length > 0 && temperature.data(), 60_000, {
      what: "a remote-written sample at the observer",
    });
    expect(gauge).toEqual({
      metric: "tower_agent_temperature",
      resourceId: `${instance},job=lab,room=lab`,
      value: 21.5,
      timestamp: expect.any(Number),
    });
    expect(Math.abs(gauge!.timestamp - Date.now())).toBeLessThan(60_000);
    const [counter] = await eventually(() => requests.data().length > 0 && requests.data(), 30_000);
    expect(counter).toMatchObject({
      resourceId: `${instance},code=200,job=lab,path=/a\\ b`,
      value: 1027,
    });
  });

  it("counts what it accepted on its route in /prometheus", async () => {
    const scrape = await service.raw("GET", "/prometheus");
    const accepted = /^tower_intake_data_accepted_total\{route="\/api\/v1\/write"\} (\d+)$/m.exec(scrape.text);
    expect(Number(accepted?.[1])).toBeGreaterThan(0);
  });
});
