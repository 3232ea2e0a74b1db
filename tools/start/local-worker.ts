import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Miniflare, NoOpLog } from "miniflare";
import { assetsBehindBinding } from "./assets-binding.ts";
import { newBundleDirectory } from "./bundle-directory.ts";
import { runCustomBuild } from "./custom-build.ts";
import { localDurableObjects, localEntryModule } from "./local-entry.ts";
import { bundleWorker } from "./worker-bundle.ts";
import { type ConsoleLevel, workerConsole } from "./worker-console.ts";
import { wrapWorkerd } from "./workerd-wrapper.ts";
import { wranglerView } from "./wrangler-view.ts";

export interface LocalWorkerOptions {
  /** 0 lets the system choose a free port. */
  port: number;
  /** The directory `wrangler dev --persist-to` would take; Durable Objects and queues live under its v3/. */
  stateDir: string;
  /** Vars and secrets, on top of wrangler.toml's. */
  bindings: Record<string, string>;
  /** Show Miniflare's log and the Worker's console output (tests keep them quiet). */
  verbose: boolean;
  /** How much of them, when shown: everything unless said. */
  consoleLevel?: ConsoleLevel;
  /** Opens workerd's V8 inspector on this port (the profiler connects to it). */
  inspectorPort?: number;
  /**
   * Runs wrangler.toml's [build] command first, as `wrangler dev` does (the default); test runs
   * that ran it once for all their services leave it out.
   */
  build?: boolean;
  /**
   * Runs wrangler.toml's Worker as deployed, without the local entry around it (local-entry.ts: no
   * intake journal, no drain, no garbage collection now and then): for the bench, which measures
   * what holds deployed.
   */
  asDeployed?: boolean;
}

export interface LocalWorker {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Stops workerd; the state stays on disk. */
  dispose(): Promise<void>;
}

/** workerd's output must still be read, or it blocks once the pipe is full. */
export const discardOutput = (stdout: Readable, stderr: Readable) => {
  stdout.resume();
  stderr.resume();
};

/**
 * The Worker of wrangler.toml in workerd, inside the local entry (local-entry.ts) unless `asDeployed`,
 * driven by Miniflare from this process with the options
 * wrangler itself derives from the configuration (bindings, Durable Objects, queues, static
 * assets; read in a child process, wrangler-view.ts), and nothing between the client and the Worker: clients connect to a socket of the
 * Worker's own in workerd, not to Miniflare's entry socket, whose router worker would handle every
 * request first, and its static assets are reached through their binding only (assets-binding.ts). Resolves once workerd listens; rejects if it cannot, for instance because the
 * port is taken.
 */
export async function startLocalWorker(options: LocalWorkerOptions): Promise<LocalWorker> {
  wrapWorkerd();
  const { config, main, workerOptions } = await wranglerView();
  if (options.build ?? true) await runCustomBuild(config, options.verbose);
  const outdir = await newBundleDirectory();
  const removeBundle = () => rm(outdir, { recursive: true, force: true });
  let miniflare: Miniflare | undefined;
  try {
    const entry = await bundleWorker(config, options.asDeployed ? main : localEntryModule, outdir);
    miniflare = new Miniflare({
      // Miniflare's own entry socket, which it uses itself; clients use the Worker's socket below.
      host: "127.0.0.1",
      port: 0,
      // The layout of `wrangler dev --persist-to <stateDir>`, so that both read the same data.
      defaultPersistRoot: join(options.stateDir, "v3"),
      // The Worker reads nothing from request.cf; no download of it from Cloudflare at each start.
      cf: false,
      ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
      ...(options.verbose
        ? workerConsole(options.consoleLevel ?? "debug")
        : { log: new NoOpLog(), handleRuntimeStdio: discardOutput }),
      // The Worker first: Miniflare's entry socket and unsafeGetDirectURL() answer for the first.
      workers: assetsBehindBinding({
        ...workerOptions,
        // Durable Object storage is keyed by the Worker's name, as under wrangler dev.
        name: config.name,
        modulesRoot: outdir,
        modules: [{ type: "ESModule", path: entry }],
        bindings: { ...workerOptions.bindings, ...options.bindings },
        ...(!options.asDeployed && { durableObjects: { ...workerOptions.durableObjects, ...localDurableObjects } }),
        unsafeDirectSockets: [{ host: "127.0.0.1", port: options.port }],
        // The Worker's fetches go out as it makes them, not through a Worker of Miniflare's that
        // strips a CF-Connecting-IP header they never carry (the Worker forwards no request).
        stripCfConnectingIp: false,
      }),
    });
    await miniflare.ready;
    const url = (await miniflare.unsafeGetDirectURL()).origin;
    const running = miniflare;
    return {
      url,
      async dispose() {
        await running.dispose();
        await removeBundle();
      },
    };
  } catch (error) {
    await miniflare?.dispose();
    await removeBundle();
    throw error;
  }
}
