import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import {
  killLauncher,
  type LaunchedService,
  launchService,
  stopIfRunning,
} from "../../tools/start/testing/launched-service.ts";
import { launcherScript } from "./support/local-server.ts";
import {
  accepted,
  deliveryCounters,
  observeMetric,
  steadyTraffic,
  type TrafficRequest,
} from "./support/monitoring-traffic.ts";
import { eventually } from "./support/service.ts";
import { type SwitchableReceiver, startSwitchableReceiver } from "./support/switchable-receiver.ts";

/*
 * What a crash (SIGKILL: no drain) of `npm start`, or of `npm run dev` under TOWER_E2E_SERVER=dev,
 * loses. Locally the intake queue is Miniflare's under both, in memory: data accepted (204) but
 * not yet consumed die with the process, while what a consumer batch delivered, or wrote to an
 * observer's durable backlog, survives. The test asserts only the bounds that must hold and prints
 * the figure; docs/LOCAL-DURABILITY.md keeps measured figures.
 */

const dataPerRequest = 100;
const requestIntervalMs = 50; // 2,000 data per second
/** CRASH_TRAFFIC_MS moves the kill against the consumer's batch timer (docs/LOCAL-DURABILITY.md). */
const trafficMs = Number(process.env.CRASH_TRAFFIC_MS ?? 3_000);
/** Data accepted this long before the kill must have been consumed: a batch waits at most 1 s (wrangler.toml). */
const consumedWithinMs = 2_000;
const metric = "restart.crash";

let stateDir: string;
let target: SwitchableReceiver | undefined;
const launched: LaunchedService[] = [];

afterAll(async () => {
  for (const service of launched) await stopIfRunning(service.launcher);
  await target?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

it("loses on a SIGKILL at most the data accepted in the last seconds, and nothing a later batch overtook", async () => {
  stateDir = await mkdtemp(join(tmpdir(), "tower-edge-crash-"));
  target = await startSwitchableReceiver("up");
  const first = await launchService(stateDir, {}, launcherScript);
  launched.push(first);
  const observerId = await observeMetric(first.url, metric, target.url);

  const started = Date.now();
  const requests = await steadyTraffic(first.url, {
    metric,
    prefix: "crash",
    dataPerRequest,
    intervalMs: requestIntervalMs,
    durationMs: trafficMs,
  });
  await sleep(Math.max(0, started + trafficMs - Date.now()));
  const killedAt = Date.now();
  await killLauncher(first.launcher);
  const arrivedBeforeKill = target.distinct();
  // Requests under way at the kill end without an answer: not accepted.
  await eventually(() => requests.every((request) => request.outcome !== undefined), 10_000);

  const second = await launchService(stateDir, {}, launcherScript);
  launched.push(second);
  // What reached the durable backlog before the kill is delivered now: wait until it is empty and
  // nothing more arrives.
  let arrivals = -1;
  const counters = await eventually(async () => {
    const current = await deliveryCounters(second.url, metric, observerId);
    const settled = current.backlog === 0 && target!.distinct() === arrivals;
    arrivals = target!.distinct();
    return settled ? current : undefined;
  }, 60_000);

  const acceptedRequests = requests.filter((request) => request.outcome && accepted(request.outcome));
  const lostOf = (request: TrafficRequest) => request.ids.filter((id) => !target!.arrivals.has(id));
  const lost = acceptedRequests.flatMap(lostOf);
  const acceptedData = acceptedRequests.length * dataPerRequest;
  const acceptedLate = acceptedRequests
    .filter((request) => request.answeredAt! >= killedAt - consumedWithinMs)
    .reduce((total, request) => total + request.ids.length, 0);
  const rate = (acceptedData * 1_000) / trafficMs;
  console.log(
    `crash: ${acceptedData} data accepted in ${acceptedRequests.length} of ${requests.length} requests ` +
      `(${Math.round(rate)} data/s), ${arrivedBeforeKill} arrived before the SIGKILL, ` +
      `${lost.length} lost = ${Math.round((lost.length * 1_000) / rate)} ms of traffic, ` +
      `${target.duplicates()} duplicates; status after the restart ${JSON.stringify(counters)}`,
  );

  expect(acceptedData).toBeGreaterThan(0);
  // Only data still on the in-memory queue, or in the batch under way, can be lost.
  expect(lost.length).toBeLessThanOrEqual(acceptedLate);
  // Batches are consumed in order, one at a time: once data of a request reached the observer,
  // every request answered before that one was sent was in that batch or an earlier, finished one.
  const consumed = requests.filter((request) => request.ids.some((id) => target!.arrivals.has(id)));
  const lastConsumedSentAt = Math.max(...consumed.map((request) => request.sentAt));
  const overtaken = acceptedRequests.filter((request) => request.answeredAt! < lastConsumedSentAt);
  expect(overtaken.flatMap(lostOf)).toEqual([]);
  // The service counts as delivered nothing that did not arrive.
  expect(counters.delivered).toBeLessThanOrEqual(target.distinct() + target.duplicates());
  expect(counters.dead + counters.dropped).toBe(0);
}, 240_000);
