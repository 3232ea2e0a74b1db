/**
 * The real receivers of the interop tests, started by .ci/install-interop-servers.sh: carbon-cache
 * (Graphite plaintext on TCP and UDP 127.0.0.1:2003, read back with whisper-fetch) and InfluxDB 1.x
 * (HTTP 127.0.0.1:8086, line protocol over UDP 127.0.0.1:8089 into database "interop"). They are
 * detected by probing those ports; suites whose server is absent skip, with a message saying why.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { eventually } from "./service.ts";

export const carbonPort = 2003;
export const influxUrl = "http://127.0.0.1:8086";
export const influxUdpPort = 8089;
export const influxDatabase = "interop";
const whisperDirectory = "/var/lib/graphite/whisper";

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

export const carbonAvailable = (await tcpPortOpen(carbonPort)) && (await commandExists("whisper-fetch"));
export const influxAvailable = await influxAnswers();
if (!carbonAvailable || !influxAvailable) {
  const missing = [!carbonAvailable && "carbon-cache", !influxAvailable && "influxd"].filter(Boolean).join(", ");
  console.warn(`interop servers not running (${missing}): run .ci/install-interop-servers.sh to enable these tests`);
}

/** Unique per test file and run, so that earlier runs' data cannot satisfy a check. */
export function uniqueRunId(): string {
  return `run${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** The values whisper holds for a metric path over the last ten minutes, or undefined before its file exists. */
async function whisperValues(metricPath: string, nowSeconds: number): Promise<(number | null)[] | undefined> {
  const file = `${join(whisperDirectory, ...metricPath.split("."))}.wsp`;
  try {
    const { stdout } = await run("whisper-fetch", ["--json", `--from=${nowSeconds - 600}`, file]);
    return (JSON.parse(stdout) as { values: (number | null)[] }).values;
  } catch {
    return undefined;
  }
}

export async function eventuallyInCarbon(metricPath: string, value: number, nowSeconds: number): Promise<void> {
  await eventually(async () => (await whisperValues(metricPath, nowSeconds))?.includes(value), 30_000);
}

/** Rows of an InfluxQL query once it returns `count` of them. */
export async function eventuallyInInflux<Row>(query: string, count: number): Promise<Row[]> {
  const parameters = new URLSearchParams({ db: influxDatabase, epoch: "s", q: query });
  return eventually(async () => {
    const answer = (await (await fetch(`${influxUrl}/query?${parameters}`)).json()) as {
      results: { series?: { values: Row[] }[] }[];
    };
    const values = answer.results[0]?.series?.[0]?.values;
    return values && values.length === count ? values : undefined;
  });
}
