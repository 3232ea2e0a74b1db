/**
 * The retry schedule end to end, with real HTTP receivers: an observer down for all but the last
 * step of the schedule gets every datum in order; one down past it ends with dead data, which a
 * replay delivers with their first webhook-ids; Retry-After is honoured up to the largest step.
 * The tests spend their time waiting for the schedule, so they run at once, on one service, each
 * with a metric and receivers of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, type ReceivedRequest, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, metricUnderTest, oneTo, type Service, startService, towerJsonValues } from "./support/service.ts";

/** Seconds; 3.8 s in all: data failing for that long are dead. The last step is the largest. */
const schedule = [0.2, 0.4, 0.8, 2.4];

let service: Service;
const receivers: HttpReceiver[] = [];

async function receiver(): Promise<HttpReceiver> {
  const started = await startHttpReceiver();
  receivers.push(started);
  return started;
}

const failures = (started: HttpReceiver) => started.requests.filter((request) => request.status !== 204);
const webhookId = (request: ReceivedRequest) => request.headers["webhook-id"] as string;

/** Waits until the receiver has seen `count` requests (the first one may come a batch timeout after a post). */
const attemptsSeen = (started: HttpReceiver, count: number) =>
  eventually(() => started.attempts >= count, 10_000, { intervalMs: 20, what: `${count} attempts` });

beforeAll(async () => {
  service = await startService({ RETRY_SCHEDULE: schedule.join(",") });
});

afterAll(async () => {
  await service?.stop();
  await Promise.all(receivers.map((started) => started.close()));
});

describe.concurrent("an observer that comes back within the retry schedule", () => {
  it("gets every datum posted while it was down, in order, at the schedule's last step", async () => {
    const metric = metricUnderTest(service, "back-in-time");
    await metric.create();
    const observer = await receiver();
    observer.answerWith(500);
    const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: observer.url });

    // Posts between the failing attempts, so that the data wait in several parts of the backlog.
    for (let attempt = 1; attempt <= 4; attempt++) {
      await metric.post(3);
      await attemptsSeen(observer, attempt);
    }
    // Failed: the batch's attempt and the retries after the steps 0.2, 0.4 and 0.8 s. Up before the last one.
    observer.answerWith(204);

    await eventually(() => towerJsonValues(observer.received).length >= 12, 15_000, { what: "12 data received" });
    expect(towerJsonValues(observer.received)).toEqual(oneTo(12));
    expect(failures(observer)).toHaveLength(4);
    // The successful attempt came after the last step (2.4 s, less 20 % of jitter).
    expect(observer.received[0]!.at - failures(observer)[3]!.at).toBeGreaterThanOrEqual(1_900);
    const status = await eventually(async () => {
      const current = await metric.status(id);
      return current.backlog === 0 ? current : undefined;
    }, 10_000);
    expect(status).toMatchObject({ delivered: 12, failed: 4, dead: 0, dropped: 0, backlog: 0, nextAttemptAt: null });
  });
});

describe.concurrent("an observer down past the retry schedule", () => {
  it("ends with its data dead; a replay delivers them in order with the webhook-ids of the failed attempts", async () => {
    const metric = metricUnderTest(service, "dead-then-replayed");
    await metric.create();
    const observer = await receiver();
    observer.answerWith(500);
    const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: observer.url });

    for (let attempt = 1; attempt <= 3; attempt++) {
      await metric.post(2);
      await attemptsSeen(observer, attempt);
    }
    const dead = await eventually(
      async () => {
        const current = await metric.status(id);
        return current.dead === 6 ? current : undefined;
      },
      25_000,
      { what: "6 dead data" },
    );
    expect(dead).toMatchObject({ delivered: 0, dead: 6, dropped: 0, lost: 6, backlog: 0, nextAttemptAt: null });
    const failed = [...observer.requests];
    expect(failed.every((request) => request.status === 500)).toBe(true);
    // Each payload kept its webhook-id across its attempts.
    const idByBody = new Map<string, string>();
    for (const request of failed) {
      expect(idByBody.get(request.body) ?? webhookId(request)).toBe(webhookId(request));
      idByBody.set(request.body, webhookId(request));
    }

    observer.answerWith(204);
    // A range that holds none of them replays nothing.
    const none = await service.call("POST", `${metric.path}/observers/${id}/replay`, { until: "2000-01-01T00:00:00Z" });
    expect(none).toEqual({ status: 202, body: { data: 0 } });
    expect(await service.call("POST", `${metric.path}/observers/${id}/replay`)).toEqual({
      status: 202,
      body: { data: 6 },
    });

    await eventually(() => towerJsonValues(observer.received).length >= 6, 10_000, { what: "6 data received" });
    expect(towerJsonValues(observer.received)).toEqual(oneTo(6));
    const replayedIds = observer.received.map(webhookId);
    // The same payloads as the failed attempts, with the same webhook-ids, so a receiver can drop a duplicate.
    for (const request of observer.received) {
      if (idByBody.has(request.body)) expect(webhookId(request)).toBe(idByBody.get(request.body));
    }
    for (const failedId of idByBody.values()) expect(replayedIds).toContain(failedId);
    const status = await eventually(async () => {
      const current = await metric.status(id);
      return current.delivered === 6 ? current : undefined;
    }, 10_000);
    expect(status).toMatchObject({ delivered: 6, dead: 0, dropped: 0, backlog: 0 });
  });
});

describe.concurrent("Retry-After", () => {
  it("is honoured on 429 and 503 up to the largest step of the schedule", async () => {
    const metric = metricUnderTest(service, "retry-after");
    await metric.create();
    const [asked, notAsked, tooLong] = await Promise.all([receiver(), receiver(), receiver()]);
    asked.failNext(1, 429, { "retry-after": "2" });
    notAsked.failNext(1, 503);
    tooLong.failNext(1, 503, { "retry-after": "60" });
    for (const observer of [asked, notAsked, tooLong]) {
      await metric.observe({ format: "TOWER/JSON", callbackUrl: observer.url });
    }

    await metric.post(1);
    await eventually(() => [asked, notAsked, tooLong].every((observer) => observer.received.length === 1), 15_000, {
      what: "a retried delivery at each observer",
    });
    const wait = (observer: HttpReceiver) => observer.received[0]!.at - observer.requests[0]!.at;
    // Retry-After: 2 on a first step of 0.2 s: the retry waits the 2 s asked for.
    expect(wait(asked)).toBeGreaterThanOrEqual(1_900);
    expect(wait(asked)).toBeLessThan(4_000);
    // No Retry-After: the first step, 0.2 s ± 20 %, plus the time the alarm takes to run.
    expect(wait(notAsked)).toBeLessThan(1_500);
    // Retry-After: 60 is cut to the largest step, 2.4 s.
    expect(wait(tooLong)).toBeGreaterThanOrEqual(2_300);
    expect(wait(tooLong)).toBeLessThan(5_000);
    for (const observer of [asked, notAsked, tooLong]) {
      expect(observer.attempts).toBe(2);
      expect(webhookId(observer.received[0]!)).toBe(webhookId(observer.requests[0]!));
    }
  });
});
