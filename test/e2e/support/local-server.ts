import { it } from "vitest";
import { startLocalWorker } from "../../../tools/start/local-worker.ts";
import type { LauncherScript } from "../../../tools/start/testing/launcher-run.ts";
import { startWorkerProcess } from "../../../tools/start/worker-process.ts";

/*
 * The two ways this repository runs the Worker locally, which must behave alike: "start" as
 * `npm start` does (Miniflare driving workerd from this process, clients on the Worker's own
 * socket) and "dev" as `npm run dev` does (`wrangler dev` as a child process, its proxy in front).
 * TOWER_E2E_SERVER picks one for the e2e tests; the "e2e-dev" project of vitest.config.ts sets "dev".
 */
export type LocalServer = "start" | "dev";

function readLocalServer(value: string | undefined): LocalServer {
  if (value === undefined || value === "" || value === "start") return "start";
  if (value === "dev") return "dev";
  throw new Error(`TOWER_E2E_SERVER is "start" (the default) or "dev", not "${value}"`);
}

export const localServer = readLocalServer(process.env.TOWER_E2E_SERVER);

/** The launcher of the whole service (Worker and relay) under the chosen server. */
export const launcherScript: LauncherScript = localServer === "dev" ? "dev.ts" : "start.ts";

export interface WorkerRunOptions {
  /** The on-disk state (`--persist-to`'s layout under both servers), kept across runs. */
  stateDir: string;
  /** Vars and secrets on top of wrangler.toml's. */
  bindings: Record<string, string>;
  /** Shows the server's own output and the Worker's console. */
  verbose: boolean;
}

export interface RunningWorker {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Stops the Worker; its state stays on disk. */
  stop(): Promise<void>;
}

/**
 * The Worker alone (no relay), under the chosen server, on a port the server itself takes (0), so
 * that services started side by side never race for one.
 */
export async function startWorker({ stateDir, bindings, verbose }: WorkerRunOptions): Promise<RunningWorker> {
  if (localServer === "dev") {
    const worker = await startWorkerProcess({
      port: 0,
      persistTo: stateDir,
      vars: bindings,
      stdio: verbose ? "inherit" : "ignore",
    });
    return { url: worker.url, stop: () => worker.stop() };
  }
  // The run built the static assets once before its first test (built-assets.ts).
  const worker = await startLocalWorker({ port: 0, stateDir, bindings, verbose, build: false });
  return { url: worker.url, stop: () => worker.dispose() };
}

/**
 * `it` for a test of what only `npm start` does; under `npm run dev` the test is skipped, and
 * `reason` (why it does not apply there) is said once.
 */
export function itUnderNpmStartOnly(reason: string) {
  if (localServer === "dev") console.warn(`skipped under npm run dev: ${reason}`);
  return it.skipIf(localServer === "dev");
}
