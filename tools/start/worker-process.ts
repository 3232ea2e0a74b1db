import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { waitUntilHealthy } from "./health.ts";
import { writeLocalWranglerConfig } from "./local-wrangler-config.ts";
import { boundToParent } from "./parent-death.ts";
import { projectRoot } from "./project.ts";
import { wrapWorkerd } from "./workerd-wrapper.ts";
import { watchWranglerOutput } from "./wrangler-output.ts";
import { wranglerView } from "./wrangler-view.ts";

/*
 * wrangler's CLI proper, run as its bin script runs it. Not the bin script itself: that one runs
 * the CLI in a child process of its own, which would outlive it when it is killed.
 */
const wranglerCli = ["--no-warnings", "--experimental-vm-modules", createRequire(import.meta.url).resolve("wrangler")];

/** How long wrangler dev may take to listen, and then to answer /healthz, on a loaded machine. */
const startupTimeoutMs = 90_000;

export interface WorkerProcessOptions {
  /** Its port on 127.0.0.1; 0 lets wrangler dev take a free one, so that no other process can take it first. */
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
async function varArguments(options: WorkerProcessOptions): Promise<string[]> {
  const fromDevVars = new Set(options.useDevVars ? Object.keys((await wranglerView()).devVars) : []);
  return Object.entries(options.vars ?? {})
    .filter(([name]) => !fromDevVars.has(name))
    .flatMap(([name, value]) => ["--var", `${name}:${value}`]);
}

interface OutputDestination {
  stdout?: Writable;
  stderr?: Writable;
  /** Closes what was opened for it, once wrangler's output has ended. */
  close(): void;
}

/** Where wrangler's output is passed on to: this process's own streams, a file, or nowhere. */
function outputDestination(stdio: WorkerProcessOptions["stdio"] = "inherit"): OutputDestination {
  if (stdio === "inherit") return { stdout: process.stdout, stderr: process.stderr, close: () => undefined };
  if (stdio === "ignore") return { close: () => undefined };
  const file = createWriteStream(stdio.logFile, { flags: "a" });
  return { stdout: file, stderr: file, close: () => file.end() };
}

/**
 * Runs `wrangler dev` (local mode, on-disk persistence, reloads on source changes) as a child of
 * this process that dies with it, and resolves once /healthz answers at the address it says it
 * listens on. Its output is read through pipes, to learn that address and, should it fail to
 * start, to say why.
 */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const args = [
    ...wranglerCli,
    "dev",
    // wrangler.toml's Worker inside the local entry, as npm start runs it.
    "--config",
    await writeLocalWranglerConfig(),
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--persist-to",
    options.persistTo,
    "--show-interactive-dev-session=false",
    "--inspector-port",
    "0",
    ...(await varArguments(options)),
    // Naming an env file keeps wrangler from reading .dev.vars itself; this one holds nothing.
    ...(options.useDevVars ? [] : ["--env-file", "/dev/null"]),
  ];
  const destination = outputDestination(options.stdio);
  // Passed on to a terminal, the output keeps the colours wrangler gives a terminal of its own.
  const colours = destination.stdout === process.stdout && process.stdout.isTTY ? { FORCE_COLOR: "1" } : {};
  wrapWorkerd();
  const [command, commandArgs] = boundToParent(process.execPath, args);
  const child = spawn(command, commandArgs, {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...colours, WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
  child.once("close", destination.close);
  const output = watchWranglerOutput(child, destination, startupTimeoutMs);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    // wrangler stops its workerd on SIGTERM; SIGKILL, should it hang, takes workerd down too.
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await output.ready;
    await waitUntilHealthy(url, child, "wrangler dev", startupTimeoutMs).catch((error: Error) => {
      throw new Error(`${error.message}:\n${output.tail()}`);
    });
    return { url, exited, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
