import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type LaunchedService, launchService, stopIfRunning } from "../../tools/start/testing/launched-service.ts";
import { itUnderNpmStartOnly } from "./support/local-server.ts";
import {
  accepted,
  deliveryCounters,
  numberedData,
  observeMetric,
  type PostOutcome,
  postData,
  steadyTraffic,
} from "./support/monitoring-traffic.ts";
import { eventually } from "./support/service.ts";
import { type SwitchableReceiver, startSwitchableReceiver } from "./support/switchable-receiver.ts";

/*
 * A graceful stop of `npm start` (SIGINT) loses nothing it accepted: the launcher drains the
 * Worker, so what the in-memory local queue held reaches the observer or its durable backlog
 * before workerd stops, and the backlog is delivered after a restart on the same state directory.
 * The real launcher process, stopped and started again by each test on a state directory of the
 * file's own; the service a test restarts is the one the next test stops, each test with a metric
 * of its own.
 */

/**
 * Quick retries while the observer is down, for longer than a stop and a restart take on a loaded
 * machine; the long last step keeps data from becoming dead (tried for the whole schedule).
 */
const settings = { RETRY_SCHEDULE: `${"0.5,".repeat(60)}60` };

const it = itUnderNpmStartOnly("npm run dev stops at once on Ctrl-C, without the drain these tests are about");

let stateDir: string;
/** The launcher running on the state directory, if one is. */
let running: LaunchedService | undefined;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "tower-edge-restart-"));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  const last = running;
  try {
    // The service the last test restarted stops as the others did.
    if (last) expect(await interrupted(last)).toBe(0);
  } finally {
    await stopIfRunning(last?.launcher);
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  }
});

async function receiver(initially: "up" | "down"): Promise<SwitchableReceiver> {
  const started = await startSwitchableReceiver(initially);
  cleanups.push(() => started.close());
  return started;
}

/** The launcher running on the state directory, started if none is. */
async function runningService(): Promise<LaunchedService> {
  running ??= await launchService(stateDir, settings);
  return running;
}

/** Sends SIGINT to the running launcher; resolves with its exit code. */
function interrupted(service: LaunchedService): Promise<number | null> {
  if (running === service) running = undefined;
  service.launcher.child.kill("SIGINT");
  return service.launcher.exited;
}

/** Starts the launcher again on the state directory, after the test interrupted the one before. */
async function restarted(): Promise<LaunchedService> {
  if (running) throw new Error("the launcher before is still running");
  return runningService();
}

/** Posts `requests` requests of `size` data at once; fails unless every one is accepted. */
async function postAll(url: string, metric: string, prefix: string, requests: number, size: number) {
  const batches = Array.from({ length: requests }, (_, index) => numberedData(metric, `${prefix}${index}`, size));
  const outcomes = await Promise.all(batches.map((data) => postData(url, data)));
  expect(outcomes.filter((outcome) => !accepted(outcome))).toEqual([]);
  return batches.flat().map((datum) => datum.id);
}

/** Waits until the observer has every datum and an empty backlog; fails if one was never received. */
async function expectAllDelivered(
  service: LaunchedService,
  metric: string,
  observerId: string,
  target: SwitchableReceiver,
  ids: ReadonlySet<string>,
) {
  const counters = await eventually(async () => {
    const current = await deliveryCounters(service.url, metric, observerId);
    return current.backlog === 0 && current.delivered >= ids.size ? current : undefined;
  }, 60_000);
  expect(counters).toMatchObject({ delivered: ids.size, backlog: 0, dead: 0, dropped: 0 });
  const missing = [...ids].filter((id) => !target.arrivals.has(id));
  expect(missing).toEqual([]);
  return counters;
}

/** SIGINT, and how the launcher ends: its exit code, and the intake's answer while it drained. */
async function interrupt(service: LaunchedService, probe: (index: number) => Promise<PostOutcome>) {
  const exited = interrupted(service);
  const probes: PostOutcome[] = [];
  // Data sent while the launcher stops are either accepted (before the drain began), refused with
  // 503 and Retry-After (during the drain), or not answered (the Worker is gone).
  while (service.launcher.child.exitCode === null && probes.length < 500) {
    const outcome = await probe(probes.length);
    probes.push(outcome);
    if (!("status" in outcome) || outcome.status === 503) break;
  }
  return { exitCode: await exited, probes };
}

it("delivers after a restart everything accepted before a SIGINT, the observer being down until then", async () => {
  const metric = "restart.graceful.down";
  const target = await receiver("down");
  const first = await runningService();
  const observerId = await observeMetric(first.url, metric, target.url);
  const ids = new Set(await postAll(first.url, metric, "down", 20, 50));

  const { exitCode, probes } = await interrupt(first, async (index) => {
    const data = numberedData(metric, `probe${index}`, 1);
    const outcome = await postData(first.url, data);
    if (accepted(outcome)) ids.add(data[0]!.id);
    return outcome;
  });
  expect(exitCode).toBe(0);
  for (const outcome of probes) {
    if ("status" in outcome) expect([204, 503]).toContain(outcome.status);
  }
  const refused = probes.find((outcome) => "status" in outcome && outcome.status === 503);
  if (refused && "status" in refused) expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
  expect(target.requests, "the observer was down: nothing could be delivered").toBe(0);

  const second = await restarted();
  await target.up();
  const counters = await expectAllDelivered(second, metric, observerId, target, ids);

  console.log(
    `graceful restart, observer down: ${ids.size} data accepted (${probes.filter(accepted).length} while stopping), ` +
      `${probes.length} probes during the stop, ${refused ? "503 + Retry-After seen" : "no 503 caught"}; ` +
      `after the restart ${target.distinct()} distinct data arrived, ${target.duplicates()} duplicates, ` +
      `status ${JSON.stringify(counters)}`,
  );
}, 240_000);

it("delivers, before the stop or after the restart, 5,000 data accepted right before a SIGINT", async () => {
  const metric = "restart.graceful.up";
  const target = await receiver("up");
  const first = await runningService();
  const observerId = await observeMetric(first.url, metric, target.url);
  const ids = new Set(await postAll(first.url, metric, "up", 50, 100));

  expect(await interrupted(first)).toBe(0);
  const beforeStop = target.distinct();

  const second = await restarted();
  const counters = await expectAllDelivered(second, metric, observerId, target, ids);

  console.log(
    `graceful restart, observer up: ${ids.size} data accepted, ${beforeStop} arrived before the stop, ` +
      `${target.distinct()} distinct in all, ${target.duplicates()} duplicates, status ${JSON.stringify(counters)}`,
  );
}, 240_000);

it("delivers every datum accepted while traffic goes on through a SIGINT, and refuses the rest", async () => {
  const metric = "restart.graceful.traffic";
  const target = await receiver("up");
  const first = await runningService();
  const observerId = await observeMetric(first.url, metric, target.url);
  const stopped = () => first.launcher.child.exitCode !== null;

  // 2,000 data per second in 100-datum requests, until the launcher has exited.
  const traffic = steadyTraffic(first.url, {
    metric,
    prefix: "steady",
    dataPerRequest: 100,
    intervalMs: 50,
    durationMs: 60_000,
    stop: stopped,
  });
  // The SIGINT comes once data flow all the way to the observer.
  await eventually(() => target.distinct() >= 1_000, 30_000, { what: "1,000 data at the observer" });
  expect(await interrupted(first)).toBe(0);
  const requests = await traffic;
  await eventually(() => requests.every((request) => request.outcome !== undefined), 10_000);

  const answered = requests.map((request) => request.outcome!);
  const refused = answered.filter((outcome) => "status" in outcome && outcome.status === 503);
  expect(answered.filter((outcome) => "status" in outcome && ![204, 503].includes(outcome.status))).toEqual([]);
  for (const outcome of refused) expect("status" in outcome && outcome.retryAfter).toMatch(/^[1-9]\d*$/);
  const ids = new Set(requests.filter((request) => accepted(request.outcome!)).flatMap((request) => request.ids));
  const beforeStop = target.distinct();

  const second = await restarted();
  const counters = await expectAllDelivered(second, metric, observerId, target, ids);
  console.log(
    `graceful restart under traffic: ${requests.length} requests, ${ids.size} data accepted, ` +
      `${refused.length} requests refused with 503, ${answered.length - refused.length - ids.size / 100} not answered; ` +
      `${beforeStop} arrived before the stop, ${target.distinct()} distinct in all, ${target.duplicates()} duplicates, ` +
      `status ${JSON.stringify(counters)}`,
  );
}, 240_000);
