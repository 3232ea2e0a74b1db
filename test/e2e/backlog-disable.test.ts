/**
 * An observer failing for DISABLE_AFTER_HOURS without a success is disabled, and the service says
 * so as a datum of `tower.observer.disabled`, which a real receiver observing that metric gets.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, metricUnderTest, type Service, sleep, startService } from "./support/service.ts";

let service: Service;
let failing: HttpReceiver;
let watcher: HttpReceiver;

beforeAll(async () => {
  [failing, watcher] = await Promise.all([startHttpReceiver(), startHttpReceiver()]);
  service = await startService({
    // 0.0005 h = 1.8 s of failures disable an observer.
    DISABLE_AFTER_HOURS: "0.0005",
    // Data are tried for 4.5 s, longer than that: the observer is still failing at 1.8 s, not done with.
    RETRY_SCHEDULE: "0.3,0.6,1.2,2.4",
  });
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([failing?.close(), watcher?.close()]);
});

it("disables an observer that keeps failing, announces it on tower.observer.disabled, and resumes it on PATCH active", async () => {
  const announcements = metricUnderTest(service, "tower.observer.disabled");
  await announcements.create();
  await announcements.observe({ format: "TOWER/JSON", callbackUrl: watcher.url });
  const metric = metricUnderTest(service, "always-failing");
  await metric.create();
  failing.answerWith(500);
  const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: failing.url });

  await metric.post(2);
  const disabled = await eventually(
    async () => {
      const current = await metric.report(id);
      return current.state === "disabled" ? current : undefined;
    },
    15_000,
    { what: "the disabled state" },
  );
  // Its data are kept, not dead, and nothing is tried any more.
  expect(disabled.status).toMatchObject({ delivered: 0, dead: 0, backlog: 2, nextAttemptAt: null });
  const announced = await eventually(() => watcher.received[0], 10_000, { what: "the announcement" });
  expect(JSON.parse(announced.body)).toEqual([
    { resourceId: id, metric: "tower.observer.disabled", value: 1, timestamp: expect.any(Number) },
  ]);
  const attemptsWhenDisabled = failing.attempts;
  await sleep(1_500);
  expect(failing.attempts).toBe(attemptsWhenDisabled);
  expect(watcher.received).toHaveLength(1);

  failing.answerWith(204);
  const resumed = await metric.change(id, { state: "active" });
  expect(resumed.status).toBe(200);
  expect(resumed.body.state).toBe("active");
  await eventually(() => failing.received.length === 1, 10_000, { what: "the held data" });
  expect(JSON.parse(failing.received[0]!.body).map((datum: { value: number }) => datum.value)).toEqual([1, 2]);
  const status = await eventually(async () => {
    const current = await metric.status(id);
    return current.delivered === 2 ? current : undefined;
  }, 10_000);
  expect(status).toMatchObject({ delivered: 2, dead: 0, backlog: 0 });
});
