import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalWorker } from "../../../tools/start/local-worker.ts";

/** Vars of a local test run: open, private destinations allowed, quick retries. */
export const testVars = {
  AUTH_DISABLED: "true",
  ALLOW_PRIVATE_OBSERVERS: "true",
  RETRY_BASE_DELAY_SECONDS: "0",
  DELIVERY_MAX_ATTEMPTS: "4",
};

export interface Service {
  readonly url: string;
  /** JSON request to the service; returns status and parsed body (undefined when empty). */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Stops the Worker and starts it again on the same on-disk state (and a new port). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Worker as `npm start` runs it (Miniflare driving workerd, state on disk) with a fresh state
 * directory that is removed on stop. SHOW_WORKER=1 shows its request log and console output.
 */
export async function startService(vars: Record<string, string> = {}): Promise<Service> {
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-"));
  const start = () =>
    startLocalWorker({
      port: 0,
      stateDir,
      bindings: { ...testVars, ...vars },
      verbose: Boolean(process.env.SHOW_WORKER),
    });
  let worker = await start();
  return {
    get url() {
      return worker.url;
    },
    async restart() {
      await worker.dispose();
      worker = await start();
    },
    async call(method, path, body) {
      const response = await fetch(`${worker.url}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      await worker.dispose();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
