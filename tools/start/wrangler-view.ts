import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { WorkerOptions } from "miniflare";
import type { Unstable_Config, Unstable_RawConfig } from "wrangler";
import { boundToParent } from "./parent-death.ts";
import { projectRoot } from "./project.ts";

/** What the launchers need of wrangler: its reading of wrangler.toml and of the developer's settings. */
export interface WranglerView {
  /** .dev.vars, or the .env files (dev-vars.ts). */
  devVars: Record<string, string>;
  /** The settings of wrangler.toml that building and bundling the Worker follow. */
  config: Pick<Unstable_Config, "name" | "build" | "keep_names" | "minify" | "define">;
  /** The path of the Worker's main module. */
  main: string;
  /** The Miniflare options wrangler derives from wrangler.toml: bindings, Durable Objects, queues, static assets. */
  workerOptions: WorkerOptions;
  /** wrangler.toml as written, for the configuration `npm run dev` derives from it (local-wrangler-config.ts). */
  rawConfig: Unstable_RawConfig;
}

const runBundled = fileURLToPath(new URL("run-bundled.mjs", import.meta.url));
const childScript = fileURLToPath(new URL("wrangler-view-child.ts", import.meta.url));

function readInChild(): Promise<WranglerView> {
  const [command, args] = boundToParent(process.execPath, [runBundled, childScript]);
  const child = spawn(command, args, { cwd: projectRoot, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (view) => resolve(view as WranglerView));
    child.once("error", reject);
    // After the channel closed too: a view it sent has been received by then.
    child.once("close", (code, signal) =>
      reject(new Error(`reading wrangler.toml failed: its process exited (${code ?? signal}) with no answer`)),
    );
  });
}

let reading: Promise<WranglerView> | undefined;

/**
 * wrangler's view of the project, read once per process in a short-lived child process: wrangler's
 * modules would otherwise stay in this process's memory for as long as it runs, which for a
 * launcher is as long as the service does.
 */
export function wranglerView(): Promise<WranglerView> {
  reading ??= readInChild();
  return reading;
}
