import { type ChildProcess, spawn, type StdioOptions } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const wranglerBin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");

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
  stop(): Promise<void>;
}

async function waitUntilHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`wrangler dev did not answer ${url}/healthz within ${timeoutMs} ms`);
}

/** Runs `wrangler dev` (local mode, on-disk persistence) and resolves once /healthz answers. */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const args = [
    wranglerBin,
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
  ];
  // Vars go through an env file rather than --var, so wrangler shows them as hidden: they include tokens.
  const varsDirectory = await mkdtemp(join(tmpdir(), "tower-edge-vars-"));
  const varsFile = join(varsDirectory, "vars.env");
  const lines = Object.entries(options.vars ?? {}).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  await writeFile(varsFile, `${lines.join("\n")}\n`, { mode: 0o600 });
  args.push("--env-file", varsFile);
  const devVars = join(projectRoot, ".dev.vars");
  if (options.useDevVars && existsSync(devVars)) args.push("--env-file", devVars);
  const log = typeof options.stdio === "object" ? await open(options.stdio.logFile, "a") : undefined;
  const stdio: StdioOptions = log ? ["ignore", log.fd, log.fd] : typeof options.stdio === "string" ? options.stdio : "inherit";
  // A process group of its own, so stopping it also stops the workerd children.
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    detached: true,
    stdio,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
  // The child holds its own copy of the descriptor.
  await log?.close();
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = once(child, "exit");
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(varsDirectory, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(url, child, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
