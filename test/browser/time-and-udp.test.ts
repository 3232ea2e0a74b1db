import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRelayConfig } from "../../src/relay/config.ts";
import { type RunningRelay, startRelay } from "../../src/relay/relay.ts";
import { freePort } from "../../tools/testing/free-port.ts";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { eventually, type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { newWatchedPage } from "./support/dashboard-page.ts";
import { shownAfterRefreshes } from "./support/refresh-clock.ts";

/*
 * Time that tells the truth, and UDP's honesty, on the metric page in Debian's Chromium: the time
 * axis dates data that are not from today, data stamped far from now (seconds sent as milliseconds)
 * are pointed out, and a UDP observer that took data reads "Sent", never "Healthy".
 */

if (!hasChromium) console.warn(noChromiumMessage);

const minute = 60_000;
const day = 24 * 60 * minute;

/** Four data of `metric` a minute apart, the last at `last` (milliseconds). */
const fourData = (metric: string, last: number) =>
  [3, 2, 1, 0].map((back) => ({
    id: `${metric}-${back}`,
    metric,
    timestamp: last - back * minute,
    value: back,
    resourceId: "vm1",
  }));

/** A time of day (hh:mm, or hh:mm:ss), with nothing before it. */
const timeOfDay = /^\d{2}:\d{2}(:\d{2})?$/;
/** A date and a time of day: `12 Jun 14:05`, or `20 Jan 1970 14:05`. */
const dateAndTime = /^\d{1,2} [A-Z][a-z]{2}( \d{4})? \d{2}:\d{2}(:\d{2})?$/;

describe.skipIf(!hasChromium)("time and UDP on the metric page", () => {
  let service: Service;
  let relay: RunningRelay;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  let udpTarget: string;

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      const relayPort = await freePort();
      const relayToken = "time-and-udp-relay-token";
      relay = await startRelay(
        readRelayConfig({ RELAY_PORT: String(relayPort), RELAY_TOKEN: relayToken, RELAY_ALLOW_PRIVATE: "true" }),
      );
      service = await startService({ RELAY_URL: `http://127.0.0.1:${relayPort}`, RELAY_TOKEN: relayToken });
      const now = Date.now();
      const data = [
        ...fourData("StampedToday", now),
        ...fourData("StampedYesterday", now - day),
        // Seconds sent where milliseconds belong: January 1970.
        ...fourData("StampedInSeconds", now).map((datum) => ({
          ...datum,
          timestamp: Math.floor(datum.timestamp / 1000),
        })),
      ];
      expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);
      // Nothing listens at this port: a UDP observer cannot tell.
      const port = await freePort();
      udpTarget = `127.0.0.1:${port}`;
      const registered = await service.call("POST", "/v1/metrics/StampedToday/observers", {
        format: "GRAPHITE",
        protocol: "UDP",
        observerHost: "127.0.0.1",
        observerPort: port,
      });
      expect(registered.status).toBe(201);
      const more = fourData("StampedToday", Date.now()).map((datum) => ({ ...datum, id: `${datum.id}-more` }));
      expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(more))).status).toBe(204);
      const observerPath = `/v1/metrics/StampedToday/observers/${registered.body.id}`;
      await eventually(async () => (await service.call("GET", observerPath)).body.status.delivered > 0, 30_000, {
        what: "the datagrams sent",
      });
    });
    ({ page, consoleErrors } = await newWatchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await relay?.close();
  });

  /** The metric's page, once its chart is drawn: the time axis's labels. */
  async function axisLabels(metric: string): Promise<string[]> {
    await page.goto(`${service.url}/#/metrics/${metric}`);
    const labels = page.locator(".chart-axis text");
    await labels.first().waitFor();
    return labels.allTextContents();
  }

  it("shows today's data by the time of day alone, without a note", async () => {
    const labels = await axisLabels("StampedToday");
    expect(labels.length).toBeGreaterThan(1);
    for (const label of labels) expect(label).toMatch(timeOfDay);
    expect(await page.locator(".far-from-now").isHidden()).toBe(true);
  });

  it("dates every label of yesterday's data", async () => {
    const labels = await axisLabels("StampedYesterday");
    expect(labels.length).toBeGreaterThan(1);
    for (const label of labels) expect(label).toMatch(dateAndTime);
    expect(await page.locator(".far-from-now").isHidden()).toBe(true);
  });

  it("dates data stamped in seconds in 1970, and points them out", async () => {
    const labels = await axisLabels("StampedInSeconds");
    for (const label of labels) expect(label).toMatch(/^\d{1,2} Jan 1970 \d{2}:\d{2}(:\d{2})?$/);
    const note = page.locator(".far-from-now");
    await note.waitFor();
    expect(await note.textContent()).toMatch(
      /^4 of these 4 data are stamped far from now \(before 2000 or more than a day ahead, such as \d{1,2} Jan 1970, .*\)\. Timestamps in seconds rather than milliseconds/,
    );
  });

  it("shows a UDP observer that took data as sent, not healthy", async () => {
    await page.goto(`${service.url}/#/metrics/StampedToday`);
    const card = page.locator(".observer-card", { hasText: udpTarget });
    await shownAfterRefreshes(page, card.getByText("Sent (no acknowledgement possible)"));
    expect(await card.getByText("Healthy").count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });
});
