import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../tools/testing/free-port.ts";

/** Debian's Prometheus (the `prometheus` package, which .ci installs). */
export const prometheusBinary = "/usr/bin/prometheus";
export const hasPrometheus = existsSync(prometheusBinary);

/** One scrape job: its name (the `job` label) and the one target it scrapes every second. */
export interface ScrapeJob {
  name: string;
  /** host:port */
  target: string;
  /** The target's path; Prometheus' default `/metrics` when absent. */
  metricsPath?: string;
}

export interface PrometheusAgentOptions {
  jobs: readonly ScrapeJob[];
  /** Where it remote-writes what it scraped, e.g. `<service>/api/v1/write`. */
  remoteWriteUrl: string;
  /** Sent as `Authorization: Bearer <credentials>` when given. */
  credentials?: string;
}

export interface PrometheusAgent {
  /** What it wrote on stderr, its latest part: the reason when nothing arrives. */
  log(): string;
  /** SIGTERM, then SIGKILL if it has not exited within a few seconds; removes its directory. */
  stop(): Promise<void>;
}

/** Enough of its log to see why it failed; it logs a line per remote-write problem. */
const keptLogCharacters = 16_000;
/** A stopping agent flushes its remote-write queue first, which takes long only when the service is gone. */
const stopGraceMs = 5_000;

function configuration({ jobs, remoteWriteUrl, credentials }: PrometheusAgentOptions): string {
  return [
    "global:",
    "  scrape_interval: 1s",
    "scrape_configs:",
    ...jobs.flatMap(({ name, target, metricsPath }) => [
      `  - job_name: ${JSON.stringify(name)}`,
      ...(metricsPath === undefined ? [] : [`    metrics_path: ${JSON.stringify(metricsPath)}`]),
      "    static_configs:",
      `      - targets: [${JSON.stringify(target)}]`,
    ]),
    "remote_write:",
    `  - url: ${JSON.stringify(remoteWriteUrl)}`,
    ...(credentials === undefined ? [] : ["    authorization:", `      credentials: ${JSON.stringify(credentials)}`]),
    "    queue_config:",
    "      batch_send_deadline: 1s",
    "",
  ].join("\n");
}

/** Runs Prometheus in agent mode (no local queries, only scraping and remote write) with a fresh WAL. */
export async function startPrometheusAgent(options: PrometheusAgentOptions): Promise<PrometheusAgent> {
  const directory = await mkdtemp(join(tmpdir(), "tower-prometheus-"));
  const config = join(directory, "prometheus.yml");
  await writeFile(config, configuration(options));
  const child: ChildProcess = spawn(
    prometheusBinary,
    [
      "--enable-feature=agent",
      `--config.file=${config}`,
      `--storage.agent.path=${join(directory, "wal")}`,
      `--web.listen-address=127.0.0.1:${await freePort()}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    if (process.env.SHOW_WORKER) process.stderr.write(chunk);
    log = (log + chunk).slice(-keptLogCharacters);
  });
  // A process that could not start emits "error" and never "exit".
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      log += `\n${String(error)}`;
      resolve();
    });
  });
  return {
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killing = setTimeout(() => child.kill("SIGKILL"), stopGraceMs);
        await exited;
        clearTimeout(killing);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
