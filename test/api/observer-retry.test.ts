import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectProblem, prefixes, request, sendJson } from "./support/http";
import { addObserver, declareMetric, noDeliveriesYet, plainHttp, unknownObserverProblem } from "./support/metrics";

/*
 * Retry now, against the Worker's clock: the clock is set far ahead of the real one, so that an
 * alarm runs only when a test runs it, and the observer's receiver is a mocked fetch.
 */

const start = Date.UTC(2031, 0, 1);
const iso = (epochMs: number) => new Date(epochMs).toISOString();

let metrics = 0;

/** A new metric with one HTTP observer; returns the observer and its path under `prefix`. */
async function observed(prefix = "") {
  const metric = `retried-${++metrics}`;
  await declareMetric(metric);
  const observer = await addObserver(metric, { format: "TOWER/JSON", callbackUrl: `http://${metric}.example/` });
  return { metric, observer, path: `${prefix}/metrics/${metric}/observers/${observer.id}` };
}

/** Three data whose delivery to the observer failed at `start`: they wait for the retry after the first step. */
async function failedBefore(metric: string, observerId: string): Promise<void> {
  await env.METRIC.getByName(metric).recordBatch({
    attempts: [
      {
        observerId,
        ok: false,
        httpStatus: 503,
        error: "HTTP 503",
        latencyMs: 5,
        data: 3,
        webhookId: "msg_1",
        attempt: 1,
        at: start,
      },
    ],
    owed: [
      {
        rows: [
          ["d1", 1, 1, "vm1"],
          ["d2", 2, 2, "vm1"],
          ["d3", 3, 3, "vm1"],
        ],
        observers: [{ id: observerId, webhookId: "msg_1", attempts: 1 }],
      },
    ],
  });
}

async function statusOf(path: string) {
  return ((await (await request("GET", path)).json()) as { status: Record<string, unknown> }).status;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(start);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("POST /metrics/:id/observers/:oid/retry", () => {
  it.each(prefixes)("makes the waiting data due now and answers 202 with the observer under %o", async (prefix) => {
    const { metric, observer, path } = await observed(prefix);
    await failedBefore(metric, String(observer.id));
    // The default schedule's first step: 5 s, jittered.
    const scheduled = Date.parse(String((await statusOf(path)).nextAttemptAt));
    expect(scheduled).toBeGreaterThan(start + 3_000);

    vi.setSystemTime(start + 1_000);
    const response = await request("POST", `${path}/retry`);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      ...observer,
      ...plainHttp,
      status: expect.objectContaining({ backlog: 3, nextAttemptAt: iso(start + 1_000) }),
    });

    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    expect(await runDurableObjectAlarm(env.METRIC.getByName(metric))).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toHaveLength(3);
    expect(await statusOf(path)).toMatchObject({ delivered: 3, backlog: 0, nextAttemptAt: null });
  });

  it("keeps the schedule's step: a retry that fails waits as the next failure would have", async () => {
    const { metric, observer, path } = await observed();
    await failedBefore(metric, String(observer.id));
    vi.setSystemTime(start + 1_000);
    expect((await request("POST", `${path}/retry`)).status).toBe(202);

    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 503 }));
    await runDurableObjectAlarm(env.METRIC.getByName(metric));
    // The second step of the default schedule, 30 s, jittered by at most 20 %.
    const next = Date.parse(String((await statusOf(path)).nextAttemptAt)) - (start + 1_000);
    expect(next).toBeGreaterThanOrEqual(24_000);
    expect(next).toBeLessThanOrEqual(36_000);
  });

  it("answers 202 with nothing waiting, and accepts a body, which it ignores", async () => {
    const { observer, path } = await observed();
    const response = await sendJson("POST", `${path}/retry`, { anything: true });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ ...observer, ...plainHttp, status: noDeliveriesYet });
  });

  it("refuses a paused observer with 409, and changes nothing", async () => {
    const { metric, observer, path } = await observed();
    await failedBefore(metric, String(observer.id));
    await sendJson("PATCH", path, { state: "paused" });
    const before = await statusOf(path);
    await expectProblem(await request("POST", `${path}/retry`), 409, {
      type: "urn:tower-edge:problem:conflict",
      title: "Conflict",
      status: 409,
      detail:
        `The observer ${JSON.stringify(observer.id)} is paused: nothing is sent to it until it is resumed ` +
        '(PATCH with {"state":"active"}), which tries its backlog at once.',
    });
    expect(await statusOf(path)).toEqual(before);
  });

  it("answers 404 for an observer or a metric that does not exist", async () => {
    const { metric } = await observed();
    await expectProblem(
      await request("POST", `/metrics/${metric}/observers/nope/retry`),
      404,
      unknownObserverProblem(metric, "nope"),
    );
    await expectProblem(
      await request("POST", "/v1/metrics/never-declared/observers/nope/retry"),
      404,
      unknownObserverProblem("never-declared", "nope"),
    );
  });

  it("answers 405 to another method", async () => {
    const { path } = await observed();
    const response = await request("GET", `${path}/retry`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("a successful delivery to an observer with a backlog", () => {
  it("brings the backlog's next attempt forward to now", async () => {
    const { metric, observer, path } = await observed();
    const observerId = String(observer.id);
    await failedBefore(metric, observerId);
    expect(Date.parse(String((await statusOf(path)).nextAttemptAt))).toBeGreaterThan(start + 3_000);

    vi.setSystemTime(start + 500);
    await env.METRIC.getByName(metric).recordBatch({
      attempts: [
        {
          observerId,
          ok: true,
          httpStatus: 204,
          latencyMs: 5,
          data: 1,
          webhookId: "msg_2",
          attempt: 1,
          at: start + 500,
        },
      ],
      owed: [],
    });
    expect(await statusOf(path)).toMatchObject({ delivered: 1, backlog: 3, nextAttemptAt: iso(start + 500) });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    expect(await runDurableObjectAlarm(env.METRIC.getByName(metric))).toBe(true);
    expect(await statusOf(path)).toMatchObject({ delivered: 4, backlog: 0 });
  });
});
