import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rdfJsonBody } from "../../../tools/testing/monitoring-data.ts";
import { startWorker } from "./local-server.ts";

/**
 * Vars of a local test run: open, private destinations allowed, and a compressed retry schedule
 * (undelivered data are tried again after 0.2, 0.4 and 0.8 s, ±20 %, and are dead after 1.4 s of
 * failures). A test that needs another schedule passes its own RETRY_SCHEDULE to startService.
 */
export const testVars = {
  AUTH_DISABLED: "true",
  ALLOW_PRIVATE_OBSERVERS: "true",
  RETRY_SCHEDULE: "0.2,0.4,0.8",
};

export interface Service {
  readonly url: string;
  /** JSON request to the service; returns status and parsed body (undefined when empty). */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The same request, answered with the body's text as it came (e.g. to check what it never contains). */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }>;
  /** Stops the Worker and starts it again on the same on-disk state (and a new port). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Worker as `npm start` runs it (Miniflare driving workerd, state on disk), or as `npm run dev`
 * does with TOWER_E2E_SERVER=dev (local-server.ts), with a fresh state directory that is removed
 * on stop. SHOW_WORKER=1 shows its request log and console output.
 */
export async function startService(vars: Record<string, string> = {}): Promise<Service> {
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-"));
  const start = () =>
    startWorker({ stateDir, bindings: { ...testVars, ...vars }, verbose: Boolean(process.env.SHOW_WORKER) });
  let worker = await start();
  // With tokens configured, the test's own calls are an admin's.
  const adminToken = vars.ADMIN_TOKEN?.split(",")[0]?.trim();
  const authorization: Record<string, string> = adminToken ? { authorization: `Bearer ${adminToken}` } : {};
  const raw: Service["raw"] = async (method, path, body) => {
    const response = await fetch(`${worker.url}${path}`, {
      method,
      headers: { ...authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  };
  return {
    get url() {
      return worker.url;
    },
    async restart() {
      await worker.stop();
      worker = await start();
    },
    async call(method, path, body) {
      const { status, text } = await raw(method, path, body);
      return { status, body: text ? JSON.parse(text) : undefined };
    },
    raw,
    async stop() {
      await worker.stop();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Polls `check` every `intervalMs` until it returns a value other than undefined/false, or fails
 * after `timeoutMs` (naming `what`, when given).
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
  { intervalMs = 100, what }: { intervalMs?: number; what?: string } = {},
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    if (Date.now() > deadline) throw new Error(`${what ?? "condition"} not met within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A metric of the service as the delivery tests use it: numbered data, observers and their status. */
export interface MetricUnderTest {
  readonly name: string;
  /** /v1/metrics/<name> */
  readonly path: string;
  /** How many data were posted so far; the next datum is number posted + 1. */
  readonly posted: number;
  /** Creates the metric. */
  create(): Promise<void>;
  /** Registers an observer (expects 201) and returns its id. */
  observe(registration: Record<string, unknown>): Promise<string>;
  /** GET of the observer: its fields, `state` and `status`. */
  report(observerId: string): Promise<any>;
  /** The observer's delivery status. */
  status(observerId: string): Promise<any>;
  /** PATCH of the observer; returns status and parsed body. */
  change(observerId: string, change: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /**
   * Posts `count` data in one request (expects 204). Datum n has the value n, the timestamp
   * 1000 × n ms (n seconds) and the resourceId `vm`, so a receiver tells their order by the value.
   */
  post(count: number): Promise<void>;
}

export function metricUnderTest(service: Service, name: string): MetricUnderTest {
  const path = `/v1/metrics/${encodeURIComponent(name)}`;
  let posted = 0;
  const report = async (observerId: string) => {
    const found = await service.call("GET", `${path}/observers/${observerId}`);
    if (found.status !== 200) throw new Error(`GET of observer ${observerId} answered ${found.status}`);
    return found.body;
  };
  return {
    name,
    path,
    get posted() {
      return posted;
    },
    async create() {
      const created = await service.call("PUT", path);
      if (created.status !== 201) throw new Error(`PUT ${path} answered ${created.status}`);
    },
    async observe(registration) {
      const registered = await service.call("POST", `${path}/observers`, registration);
      if (registered.status !== 201) {
        throw new Error(`registration answered ${registered.status}: ${JSON.stringify(registered.body)}`);
      }
      return registered.body.id as string;
    },
    report,
    status: async (observerId) => (await report(observerId)).status,
    change: (observerId, change) => service.call("PATCH", `${path}/observers/${observerId}`, change),
    async post(count) {
      const data = Array.from({ length: count }, () => {
        posted += 1;
        return { id: `d${posted}`, metric: name, timestamp: 1_000 * posted, value: posted, resourceId: "vm" };
      });
      const answer = await service.call("POST", "/monitoringdata", rdfJsonBody(data));
      if (answer.status !== 204) throw new Error(`POST /monitoringdata answered ${answer.status}`);
    },
  };
}

/** The values of the data in TOWER/JSON bodies, in the order of the bodies and within each. */
export function towerJsonValues(requests: readonly { body: string }[]): number[] {
  return requests.flatMap((request) => (JSON.parse(request.body) as { value: number }[]).map((datum) => datum.value));
}

/** 1, 2, …, count */
export function oneTo(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}
