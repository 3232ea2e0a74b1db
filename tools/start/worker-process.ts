import { type StdioOptions, spawn } from "node:child_process";
import { once } from "node:events";
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import { readDevVars } from "./dev-vars.ts";
import { waitUntilHealthy } from "./health.ts";
import { bindWorkerdToParent, boundToParent } from "./parent-death.ts";
import { projectRoot } from "./project.ts";

/*
 * wrangler's CLI proper, run as its bin script runs it. Not the bin script itself: that one runs
 * the CLI in a child process of its own, which would outlive it when it is killed.
 */
const wranglerCli = ["--no-warnings", "--experimental-vm-modules", createRequire(import.meta.url).resolve("wrangler")];

export interface WorkerProcessOptions {
  port: number;
  /** Directory of the on-disk state (Durable Objects, queues); survives restarts. */
  persistTo: string;
  /** Worker vars and secrets for this run, on top of wrangler.toml. */
  vars?: Record<string, string>;
  /** Let the project's .dev.vars override `vars` (the developer's own settings; off in tests). */
  useDevVars?: boolean;
  /** Where wrangler's own output goes: this process's (the default), nowhere, or a file opened for appending. */
  stdio?: "inherit" | "ignore" | { logFile: string };
}

export interface WorkerProcess {
  url: string;
  /** Settles with wrangler's exit code (null after a signal) when it exits, however that happens. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * The vars as `--var NAME:value` arguments: wrangler keeps them in memory and prints them as
 * hidden, and nothing is written to disk. They do show in the process list, to this machine's
 * users. The names .dev.vars sets are left out: wrangler reads that file itself (a `--var` would
 * override it), so the developer's own secrets never reach the command line.
 */
function varArguments(options: WorkerProcessOptions): string[] {
  const fromDevVars = new Set(options.useDevVars ? Object.keys(readDevVars()) : []);
  return Object.entries(options.vars ?? {})
    .filter(([name]) => !fromDevVars.has(name))
    .flatMap(([name, value]) => ["--var", `${name}:${value}`]);
}

/**
 * Runs `wrangler dev` (local mode, on-disk persistence, reloads on source changes) as a child of
 * this process that dies with it, and resolves once /healthz answers.
 */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const args = [
    ...wranglerCli,
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--persist-to",
    options.persistTo,
    "--show-interactive-dev-session=false",
    "--inspector-port",
    "0",
    ...varArguments(options),
    // Naming an env file keeps wrangler from reading .dev.vars itself; this one holds nothing.
    ...(options.useDevVars ? [] : ["--env-file", "/dev/null"]),
  ];
  const log = typeof options.stdio === "object" ? await open(options.stdio.logFile, "a") : undefined;
  const stdio: StdioOptions = log
    ? ["ignore", log.fd, log.fd]
    : typeof options.stdio === "string"
      ? options.stdio
      : "inherit";
  bindWorkerdToParent();
  const [command, commandArgs] = boundToParent(process.execPath, args);
  const child = spawn(command, commandArgs, {
    cwd: projectRoot,
    stdio,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
  // The child holds its own copy of the descriptor.
  await log?.close();
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    // wrangler stops its workerd on SIGTERM; SIGKILL, should it hang, takes workerd down too.
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilHealthy(url, child, "wrangler dev", 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, exited, stop };
}
