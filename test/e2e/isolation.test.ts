/**
 * A hanging observer does not hold up the healthy observers, of its metric or of another one: a
 * consumer batch waits for it no longer than DELIVERY_BUDGET_MS when nothing is known of it, and
 * only a small part of that when it answered quickly until it began to hang; then its data go to
 * its backlog, and later batches leave it to the backlog. The figure that matters (latency under
 * load) is measured in the bench; these tests only check, loosely, that the healthy observers stay
 * close to their latency before, that each receives its data in order, and that the hanging
 * observer's data are kept, not lost.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import {
  eventually,
  type MetricUnderTest,
  metricUnderTest,
  type Service,
  sleep,
  startService,
} from "./support/service.ts";

/** The service's default, named here because the bounds below depend on it. */
const budgetMs = 2_000;
/** How long the hanging observers' attempts take to fail; the bounds below stay far under it. */
const timeoutMs = 10_000;
const requests = 20;
const dataPerRequest = 50;
const intervalMs = 100;

let service: Service;
let healthy: HttpReceiver;
let hanging: HttpReceiver;

beforeAll(async () => {
  [healthy, hanging] = await Promise.all([startHttpReceiver(), startHttpReceiver()]);
  hanging.hang();
  service = await startService({
    DELIVERY_BUDGET_MS: String(budgetMs),
    // The hanging observers' attempts from their backlog end after the timeout, and their data are
    // tried for 7 s more: they stay in the backlogs for the whole test.
    DELIVERY_TIMEOUT_MS: String(timeoutMs),
    RETRY_SCHEDULE: "1,2,4",
  });
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([healthy?.close(), hanging?.close()]);
});

/** The nearest-rank percentile `p` (0–100) of `values`. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const summary = (latencies: number[]) => ({
  p50: percentile(latencies, 50),
  p99: percentile(latencies, 99),
  max: Math.max(...latencies),
});

/** A healthy observer: the metric it observes and the receiver its data arrive at. */
interface Watched {
  metric: MetricUnderTest;
  receiver: HttpReceiver;
}

/** The data of `metric` numbered first…last that reached `receiver`, in the order they arrived. */
function arrivals({ metric, receiver }: Watched, first: number, last: number) {
  return receiver.received
    .filter((request) => request.path === `/${metric.name}`)
    .flatMap((request) =>
      (JSON.parse(request.body) as { value: number }[])
        .filter((datum) => datum.value >= first && datum.value <= last)
        .map((datum) => ({ value: datum.value, at: request.at })),
    );
}

/**
 * Posts `requests` requests of `dataPerRequest` data to each watched metric, one round every
 * `intervalMs`; checks that each watched observer received every datum once and in order, and
 * returns each one's latencies, from the start of a datum's POST to its arrival.
 */
async function steadyStream(watched: readonly Watched[]): Promise<number[][]> {
  const streams = watched.map((target) => ({ target, first: target.metric.posted + 1, postedAt: new Map() }));
  const start = Date.now();
  for (let request = 0; request < requests; request++) {
    await sleep(Math.max(0, start + request * intervalMs - Date.now()));
    await Promise.all(
      streams.map(async ({ target: { metric }, postedAt }) => {
        const sentAt = Date.now();
        for (let n = metric.posted + 1; n <= metric.posted + dataPerRequest; n++) postedAt.set(n, sentAt);
        await metric.post(dataPerRequest);
      }),
    );
  }
  return Promise.all(
    streams.map(async ({ target, first, postedAt }) => {
      const last = target.metric.posted;
      await eventually(() => arrivals(target, first, last).length >= last - first + 1, 30_000, {
        what: `every datum of ${target.metric.name} at its healthy receiver`,
      });
      const received = arrivals(target, first, last);
      expect(received.map((datum) => datum.value)).toEqual(
        Array.from({ length: last - first + 1 }, (_, i) => first + i),
      );
      return received.map((datum) => datum.at - postedAt.get(datum.value)!);
    }),
  );
}

it("keeps a healthy observer's latency close to its latency alone beside a hanging observer", async () => {
  const isolated = metricUnderTest(service, "isolated");
  await isolated.create();
  await isolated.observe({ format: "TOWER/JSON", callbackUrl: `${healthy.url}/isolated` });
  const watched = [{ metric: isolated, receiver: healthy }];
  const [alone] = await steadyStream(watched);

  const hangingId = await isolated.observe({ format: "TOWER/JSON", callbackUrl: `${hanging.url}/isolated` });
  // The first stream meets the hanging observer; during the second its data already go to its backlog.
  const [meeting] = await steadyStream(watched);
  const [beside] = await steadyStream(watched);
  console.log(
    "healthy observer's latency from POST to arrival (ms): alone",
    summary(alone!),
    "meeting a hanging observer",
    summary(meeting!),
    "beside it",
    summary(beside!),
  );

  const aloneP99 = percentile(alone!, 99);
  // Nothing is known of a new observer: the batch that first meets it waits for its budget, and the
  // local queue runs one batch at a time: the data posted meanwhile wait up to one budget more.
  expect(percentile(meeting!, 99)).toBeLessThanOrEqual(1.5 * aloneP99 + budgetMs + 1_000);
  // Later batches leave the hanging observer to its backlog; the margin is for a loaded 2-core machine.
  expect(percentile(beside!, 99)).toBeLessThanOrEqual(1.5 * aloneP99 + 1_000);

  // The hanging observer's data are kept in its backlog: the first attempt was cut at the budget
  // and continued from the backlog, and nothing is dead or dropped.
  const status = await isolated.status(hangingId);
  expect(status).toMatchObject({ delivered: 0, dead: 0, dropped: 0, backlog: 2 * requests * dataPerRequest });
  const attempts = await service.call("GET", `${isolated.path}/observers/${hangingId}/attempts?limit=100`);
  expect(attempts.status).toBe(200);
  expect(attempts.body).toContainEqual(
    expect.objectContaining({ attempt: 1, ok: false, error: expect.stringMatching(/budget/) }),
  );
});

it("holds up no healthy observer, of its metric or another, when an observer that answered quickly begins to hang", async () => {
  const turning = await startHttpReceiver();
  try {
    const shared = metricUnderTest(service, "turning");
    const other = metricUnderTest(service, "turning.other");
    await Promise.all([shared.create(), other.create()]);
    await shared.observe({ format: "TOWER/JSON", callbackUrl: `${healthy.url}/${shared.name}` });
    await other.observe({ format: "TOWER/JSON", callbackUrl: `${healthy.url}/${other.name}` });
    const turningId = await shared.observe({ format: "TOWER/JSON", callbackUrl: `${turning.url}/${shared.name}` });
    const watched = [
      { metric: shared, receiver: healthy },
      { metric: other, receiver: healthy },
    ];
    const before = await steadyStream(watched);
    expect(await shared.status(turningId)).toMatchObject({ delivered: requests * dataPerRequest, backlog: 0 });

    turning.hang();
    const after = await steadyStream(watched);
    console.log(
      "healthy observers' latency from POST to arrival (ms), before and after an observer began to hang:",
      watched.map(({ metric }, index) => ({
        metric: metric.name,
        before: summary(before[index]!),
        after: summary(after[index]!),
      })),
    );

    for (const [index, latencies] of after.entries()) {
      // The first batch after the hang meets it. Waiting for its budget, or its timeout, would add
      // seconds to the data posted meanwhile; letting it go as soon as it is slow for it adds at
      // most a fraction of a budget, within the margin for a loaded 2-core machine.
      expect(Math.max(...latencies)).toBeLessThanOrEqual(1.5 * Math.max(...before[index]!) + budgetMs / 2);
      expect(percentile(latencies, 99)).toBeLessThan(timeoutMs / 4);
    }
    // What the hanging observer did not take is kept in its backlog, nothing dead or dropped.
    expect(await shared.status(turningId)).toMatchObject({
      delivered: requests * dataPerRequest,
      dead: 0,
      dropped: 0,
      backlog: requests * dataPerRequest,
    });
  } finally {
    await turning.close();
  }
});
