/**
 * Retry now, end to end with a real HTTP receiver: an observer down when its data came waits for
 * the retry schedule's next step; once it is up, a retry delivers its backlog at once, in order,
 * long before that step.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, metricUnderTest, oneTo, type Service, startService, towerJsonValues } from "./support/service.ts";

/** Seconds: a first step long enough that a delivery before it can only come from the retry. */
const schedule = [60, 120];

let service: Service;
let receiver: HttpReceiver;

beforeAll(async () => {
  service = await startService({ RETRY_SCHEDULE: schedule.join(",") });
  receiver = await startHttpReceiver();
});

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

describe("POST /v1/metrics/:id/observers/:oid/retry", () => {
  it("delivers the backlog of an observer that is up again at once, not at the next scheduled attempt", async () => {
    const metric = metricUnderTest(service, "retried-now");
    await metric.create();
    const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: receiver.url });
    await receiver.stop();

    await metric.post(3);
    await metric.post(2);
    const waiting = await eventually(
      async () => {
        const status = await metric.status(id);
        return status.backlog === 5 && status.failed >= 1 ? status : undefined;
      },
      20_000,
      { what: "5 data waiting after a failed delivery" },
    );
    const scheduled = Date.parse(waiting.nextAttemptAt);
    // The first step, less 20 % of jitter.
    expect(scheduled - Date.now()).toBeGreaterThan(30_000);

    await receiver.start();
    const retried = await service.call("POST", `${metric.path}/observers/${id}/retry`);
    const retriedAt = Date.now();
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id, state: "active", status: { backlog: 5 } });
    expect(Date.parse(retried.body.status.nextAttemptAt)).toBeLessThanOrEqual(retriedAt);

    await eventually(() => towerJsonValues(receiver.received).length >= 5, 15_000, { what: "5 data received" });
    expect(towerJsonValues(receiver.received)).toEqual(oneTo(5));
    expect(receiver.received.at(-1)!.at).toBeLessThan(scheduled - 20_000);
    const status = await eventually(async () => {
      const current = await metric.status(id);
      return current.backlog === 0 ? current : undefined;
    }, 10_000);
    expect(status).toMatchObject({ delivered: 5, dead: 0, dropped: 0, backlog: 0, nextAttemptAt: null });
  });

  it("refuses a paused observer, whose data wait for it to be resumed", async () => {
    const metric = metricUnderTest(service, "retried-paused");
    await metric.create();
    const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: receiver.url });
    expect((await metric.change(id, { state: "paused" })).status).toBe(200);
    const attemptsBefore = receiver.attempts;
    await metric.post(2);
    await eventually(async () => (await metric.status(id)).backlog === 2, 20_000, { what: "2 data held" });

    const retried = await service.call("POST", `${metric.path}/observers/${id}/retry`);
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({ type: "urn:tower-edge:problem:conflict", status: 409 });
    expect(receiver.attempts).toBe(attemptsBefore);
    expect(await metric.status(id)).toMatchObject({ backlog: 2, nextAttemptAt: null });
  });
});
