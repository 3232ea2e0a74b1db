/**
 * Delivers through the relay to real receivers: carbon-cache (Graphite plaintext, TCP and UDP) and
 * InfluxDB 1.x (line protocol over UDP), and reads the data back from each.
 * The servers come from .ci/install-interop-servers.sh; this file detects them by probing their
 * loopback ports (carbon TCP 2003 plus the whisper-fetch tool, InfluxDB HTTP 8086 /ping) and
 * skips the suites whose server is absent.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, type TestRelay } from "./support/relay.ts";
import { eventually } from "./support/service.ts";

const carbonPort = 2003;
const whisperDirectory = "/var/lib/graphite/whisper";
const influxUrl = "http://127.0.0.1:8086";
const influxUdpPort = 8089;
const influxDatabase = "interop";

const run = promisify(execFile);

function tcpPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("close", () => resolve(false));
  });
}

async function commandExists(command: string): Promise<boolean> {
  return run(command, ["--help"]).then(
    () => true,
    () => false,
  );
}

async function influxAnswers(): Promise<boolean> {
  return fetch(`${influxUrl}/ping`, { signal: AbortSignal.timeout(1_000) }).then(
    (response) => response.status === 204,
    () => false,
  );
}

const carbonAvailable = (await tcpPortOpen(carbonPort)) && (await commandExists("whisper-fetch"));
const influxAvailable = await influxAnswers();
if (!carbonAvailable || !influxAvailable) {
  const missing = [!carbonAvailable && "carbon-cache", !influxAvailable && "influxd"].filter(Boolean).join(", ");
  console.warn(`interop servers not running (${missing}): run .ci/install-interop-servers.sh to enable these tests`);
}

/** Unique per run, so that earlier runs' data cannot satisfy a check. */
const runId = `run${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const nowSeconds = Math.floor(Date.now() / 1000);

let relay: TestRelay;
beforeAll(async () => {
  if (carbonAvailable || influxAvailable) relay = await startTestRelay();
});
afterAll(async () => {
  await relay?.close();
});

/** The values whisper holds for a metric over the last ten minutes, or undefined before its file exists. */
async function whisperValues(metricPath: string): Promise<(number | null)[] | undefined> {
  const file = join(whisperDirectory, ...metricPath.split(".")) + ".wsp";
  try {
    const { stdout } = await run("whisper-fetch", ["--json", `--from=${nowSeconds - 600}`, file]);
    return (JSON.parse(stdout) as { values: (number | null)[] }).values;
  } catch {
    return undefined;
  }
}

async function eventuallyStored(metricPath: string, value: number): Promise<void> {
  await eventually(async () => (await whisperValues(metricPath))?.includes(value), 30_000);
}

describe.skipIf(!carbonAvailable)("relay → carbon-cache (Graphite plaintext)", () => {
  it("delivers lines over TCP that carbon stores", async () => {
    const metric = `interop.${runId}.tcp.cpu`;

    const { results } = await relay.deliver([
      { id: "tcp", protocol: "TCP", host: "127.0.0.1", port: carbonPort, payload: `${metric} 42.5 ${nowSeconds}\n` },
    ]);

    expect(results).toEqual([{ id: "tcp", ok: true, bytes: expect.any(Number) }]);
    await eventuallyStored(metric, 42.5);
  });

  it("delivers packed lines over UDP that carbon stores, every one of them", async () => {
    const metrics = ["a", "b", "c"].map((name) => `interop.${runId}.udp.${name}`);
    const records = metrics.map((metric, index) => `${metric} ${index + 0.25} ${nowSeconds}`);

    const { results } = await relay.deliver([
      { id: "udp", protocol: "UDP", host: "127.0.0.1", port: carbonPort, records, packing: "lines" },
    ]);

    expect(results).toEqual([{ id: "udp", ok: true, bytes: expect.any(Number) }]);
    for (const [index, metric] of metrics.entries()) await eventuallyStored(metric, index + 0.25);
  });
});

describe.skipIf(!influxAvailable)("relay → InfluxDB (line protocol)", () => {
  it("delivers lines over UDP that a query reads back", async () => {
    const timestamps = [0, 1, 2].map((offset) => BigInt(nowSeconds - offset) * 1_000_000_000n);
    // The tag value "vm 1" carries an escaped space, as the line protocol requires.
    const records = timestamps.map(
      (ns, index) => `relay_interop,resourceId=${runId},host=vm\\ 1 value=${index + 0.5} ${ns}`,
    );

    const { results } = await relay.deliver([
      { id: "influx", protocol: "UDP", host: "127.0.0.1", port: influxUdpPort, records, packing: "lines" },
    ]);
    expect(results).toEqual([{ id: "influx", ok: true, bytes: expect.any(Number) }]);

    const query = new URLSearchParams({
      db: influxDatabase,
      epoch: "s",
      q: `SELECT "value", "host" FROM "relay_interop" WHERE "resourceId" = '${runId}' ORDER BY time ASC`,
    });
    const rows = await eventually(async () => {
      const answer = (await (await fetch(`${influxUrl}/query?${query}`)).json()) as {
        results: { series?: { values: [number, number, string][] }[] }[];
      };
      const values = answer.results[0]?.series?.[0]?.values;
      return values && values.length === 3 ? values : undefined;
    });

    expect(rows).toEqual([
      [nowSeconds - 2, 2.5, "vm 1"],
      [nowSeconds - 1, 1.5, "vm 1"],
      [nowSeconds, 0.5, "vm 1"],
    ]);
  });
});
