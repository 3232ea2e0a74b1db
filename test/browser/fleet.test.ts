import type { Browser, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "../e2e/support/http-receiver.ts";
import { type Service, sleep, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { newWatchedPage } from "./support/dashboard-page.ts";
import {
  fleetMetricNames,
  fleetMetricObservers,
  fleetMetrics,
  fleetPausedObservers,
  fleetSelectorObservers,
  seedFleet,
} from "./support/fleet-data.ts";

/*
 * The overview at fleet size, in Debian's Chromium: 1,000 metrics and 1,000 observers, made through
 * the API. It loads within two seconds, stays within five screens, narrows by search and by group,
 * lists the observers that need a look first, and one idle tab keeps within its budget of platform
 * operations: on average at most two API requests and two Durable Object requests a second.
 */

if (!hasChromium) console.warn(noChromiumMessage);

const screen = { width: 1280, height: 800 };
const observers = fleetSelectorObservers + fleetMetricObservers;

describe.skipIf(!hasChromium)("the overview at fleet size", () => {
  let service: Service;
  let receiver: HttpReceiver;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      service = await startService();
      receiver = await startHttpReceiver();
      await seedFleet(service, receiver.url);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.stop();
  });

  it("loads within 2 s, within five screens, the observers that need a look first", async () => {
    const { page, consoleErrors } = await newWatchedPage(browser, screen);
    const started = Date.now();
    await page.goto(`${service.url}/#/`);
    await page.locator(".tile", { hasText: "Metrics" }).getByText("1,000", { exact: true }).waitFor();
    await page.getByRole("link", { name: fleetMetricNames[0] }).waitFor();
    expect(Date.now() - started).toBeLessThan(2_000);

    expect(await page.evaluate<number>("document.documentElement.scrollHeight")).toBeLessThanOrEqual(5 * screen.height);
    await page.getByText(`Showing 1–20 of ${fleetMetrics.toLocaleString("en")} metrics.`).waitFor();
    await page.getByText(`of ${observers.toLocaleString("en")} observers`, { exact: false }).waitFor();
    // The paused observers with data waiting come first.
    const observerRows = page.getByRole("region", { name: "Observers" }).first().locator("tbody").getByRole("row");
    for (let row = 0; row < fleetPausedObservers; row += 1) {
      await observerRows.nth(row).getByText("Paused", { exact: true }).waitFor();
    }
    // A page further, and back.
    const metricsRegion = page.getByRole("region", { name: "Metrics" }).first();
    await metricsRegion.getByRole("button", { name: "Next page" }).click();
    await page.getByText(`Showing 21–40 of ${fleetMetrics.toLocaleString("en")} metrics.`).waitFor();
    expect(await metricsRegion.locator("tbody").getByRole("row").count()).toBe(20);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it("narrows the metrics and observers by words, by selector and by group of names", async () => {
    const { page } = await newWatchedPage(browser, screen);
    await page.goto(`${service.url}/#/`);
    await page.getByRole("link", { name: fleetMetricNames[0] }).waitFor();
    const search = page.getByLabel("Search metrics and observers");

    await search.fill("metric_99");
    // metric_99 and metric_990 to metric_999, of every group.
    await page.getByText("Showing 1–11 of 11 metrics.").waitFor();
    expect(await page.getByRole("region", { name: "Metrics" }).first().locator("tbody").getByRole("row").count()).toBe(
      11,
    );

    await search.fill('{__name__=~"disk_metric_1.*"}');
    // disk_ names are those of index 2 mod 5: 12, 17, 102, 107, … 197, 1002… within 1,000.
    const diskOnes = fleetMetricNames.filter((name) => /^disk_metric_1/.test(name)).length;
    await page.getByText(`of ${diskOnes} metrics.`, { exact: false }).waitFor();

    await search.fill('{job="node"');
    await page.getByText("Searched as words: not a selector", { exact: false }).waitFor();

    await search.fill("");
    await page.getByRole("button", { name: /^cpu\.\* 200$/ }).click();
    await page.getByText("Showing 1–20 of 200 metrics.").waitFor();
    const names = await page.getByRole("region", { name: "Metrics" }).first().locator("tbody th a").allTextContents();
    expect(names.every((name) => name.startsWith("cpu."))).toBe(true);
    await page.getByRole("button", { name: /^All 1,000$/ }).click();
    await page.getByText(`Showing 1–20 of ${fleetMetrics.toLocaleString("en")} metrics.`).waitFor();
    await page.close();
  });

  it("costs at most 2 API and 2 Durable Object requests a second, as one idle tab over 60 s", async () => {
    const { page } = await newWatchedPage(browser, screen);
    const apiPaths: string[] = [];
    page.on("request", (request: Request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith("/ui/") && path !== "/") apiPaths.push(path);
    });
    await page.goto(`${service.url}/#/`);
    await page.getByRole("link", { name: fleetMetricNames[0] }).waitFor();
    const usage = async () => (await service.call("GET", "/v1/usage")).body.durableObjectRequests as number;
    const before = { objectRequests: await usage(), apiRequests: apiPaths.length };
    await sleep(60_000);
    const objectRequests = (await usage()) - before.objectRequests;
    const apiRequests = apiPaths.length - before.apiRequests;
    console.info(`one idle tab over 60 s: ${apiRequests} API requests, ${objectRequests} Durable Object requests`);
    // It did refresh: a summary every few seconds.
    expect(apiPaths.slice(before.apiRequests).filter((path) => path === "/v1/summary").length).toBeGreaterThan(5);
    expect(apiRequests).toBeLessThanOrEqual(120);
    expect(objectRequests).toBeLessThanOrEqual(120);
    await page.close();
  });

  it("says it is loading, never that there are no metrics, until the summary came", async () => {
    const { page } = await newWatchedPage(browser, screen);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/v1/summary", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${service.url}/#/`);
    const metricsSection = page.getByRole("region", { name: "Metrics" }).first();
    await metricsSection.getByText("Loading…").waitFor();
    await page.waitForTimeout(1_000);
    expect(await page.getByText("No metrics yet", { exact: false }).count()).toBe(0);
    expect(await page.getByText("No observers yet", { exact: false }).count()).toBe(0);
    expect(await page.getByText("Measuring", { exact: false }).count()).toBe(0);
    release();
    await page.getByRole("link", { name: fleetMetricNames[0] }).waitFor();
    expect(await metricsSection.getByText("Loading…").count()).toBe(0);
    await page.close();
  });
});
