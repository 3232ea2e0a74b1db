import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "../e2e/support/http-receiver.ts";
import { eventually, type Service, startService, towerJsonValues } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { newWatchedPage } from "./support/dashboard-page.ts";
import { shownAfterRefreshes } from "./support/refresh-clock.ts";

/*
 * An observer card's "Retry now" button in Debian's Chromium: an observer whose delivery failed
 * waits an hour for its next attempt; the button has its backlog delivered at once, says so, and
 * the card shows the backlog emptied. With nothing waiting it says that, and a paused observer
 * offers no retry (resuming it is what tries its backlog).
 */

if (!hasChromium) console.warn(noChromiumMessage);

const metric = "QueueDepth";

describe.skipIf(!hasChromium)("the Retry now button of an observer card", () => {
  let service: Service;
  let receiver: HttpReceiver;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  let observerPath: string;
  let callbackUrl: string;

  const card = (): Locator => page.locator(".observer-card", { hasText: callbackUrl });
  const retryButton = (): Locator => card().getByRole("button", { name: `Retry the backlog of ${callbackUrl} now` });
  const backlogShown = (count: number): Locator =>
    card().locator(".stat", { hasText: "Backlog" }).getByText(String(count), { exact: true });
  const observer = async () => (await service.call("GET", observerPath)).body;

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      // One step of an hour: after its failure, the observer's backlog waits for the button.
      service = await startService({ RETRY_SCHEDULE: "3600" });
      receiver = await startHttpReceiver();
      callbackUrl = `${receiver.url}/hook`;
      expect((await service.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
      const registered = await service.call("POST", `/v1/metrics/${metric}/observers`, {
        format: "TOWER/JSON",
        callbackUrl,
      });
      expect(registered.status).toBe(201);
      observerPath = `/v1/metrics/${metric}/observers/${registered.body.id}`;

      receiver.failNext(1, 503);
      const data = [1, 2, 3].map((value) => ({
        id: `depth-${value}`,
        metric,
        timestamp: Date.now(),
        value,
        resourceId: "queue1",
      }));
      expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);
      await eventually(async () => (await observer()).status.backlog === 3, 30_000, {
        what: "the failed data in the backlog",
      });
    });
    ({ page, consoleErrors } = await newWatchedPage(browser));
    await page.goto(`${service.url}/#/metrics/${metric}`);
    await card().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.stop();
  });

  it("delivers a backlog that waits for its scheduled retry at once, and the card shows it emptied", async () => {
    const waiting = await observer();
    expect(waiting.status).toMatchObject({ failed: 1, backlog: 3 });
    // The next attempt is about an hour away (the schedule's one step, jittered).
    expect(Date.parse(waiting.status.nextAttemptAt) - Date.now()).toBeGreaterThan(30 * 60_000);
    await backlogShown(3).waitFor();
    expect(receiver.received).toHaveLength(0);

    await retryButton().click();

    await page.getByText(`Retrying 3 data for ${callbackUrl} now.`).waitFor();
    await eventually(async () => (await observer()).status.backlog === 0, 30_000, { what: "the backlog delivered" });
    expect(towerJsonValues(receiver.received)).toEqual([1, 2, 3]);
    expect((await observer()).status).toMatchObject({ delivered: 3, failed: 1, backlog: 0 });
    await shownAfterRefreshes(page, backlogShown(0));
    expect(consoleErrors).toEqual([]);
  });

  it("says that no data wait when the backlog is empty", async () => {
    await retryButton().click();

    await page.getByText(`No data wait for ${callbackUrl}.`).waitFor();
    expect(receiver.attempts).toBe(2);
  });

  it("offers no retry for a paused observer, and offers it again once the observer is resumed", async () => {
    await card()
      .getByRole("button", { name: /^Pause observer/ })
      .click();
    await card().getByText("Paused", { exact: true }).waitFor();
    expect(await retryButton().isVisible()).toBe(false);
    expect((await service.call("POST", `${observerPath}/retry`)).status).toBe(409);

    await card()
      .getByRole("button", { name: /^Resume observer/ })
      .click();
    await card().getByText("Active", { exact: true }).waitFor();
    await retryButton().waitFor();
    expect(consoleErrors).toEqual([]);
  });
});
