import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { freePort } from "../../tools/testing/free-port.ts";
import { type HttpReceiver, startHttpReceiver } from "../e2e/support/http-receiver.ts";
import { type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { cpuSelector, postLatest, seedDashboard } from "./support/dashboard-data.ts";
import {
  dashboardPages,
  focusedControl,
  layoutShiftDuring,
  newWatchedPage,
  scrollsSideways,
  tabOrder,
} from "./support/dashboard-page.ts";
import { periodicRefreshes } from "./support/refresh-clock.ts";

/*
 * Every page of the dashboard on a service with data (a model, metrics with data, observers in
 * each state, two rules), in Debian's Chromium: it loads without errors, reads on a phone's width,
 * and is usable with the keyboard alone.
 */

if (!hasChromium) console.warn(noChromiumMessage);

// Each test opens a page of its own and waits mostly on the service and the browser: side by side.
describe.skipIf(!hasChromium).concurrent("the dashboard's pages", () => {
  let service: Service;
  let receiver: HttpReceiver;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      service = await startService();
      receiver = await startHttpReceiver();
      await seedDashboard(service, {
        healthyUrl: `${receiver.url}/tower`,
        downUrl: `http://127.0.0.1:${await freePort()}/down`,
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.stop();
  });

  it.for(dashboardPages)(
    "loads the $name page with its data and no console errors",
    async ({ hash, ready, refreshes }, { expect }) => {
      const { page, consoleErrors } = await newWatchedPage(browser);
      await page.goto(`${service.url}/${hash}`);
      await page.locator(ready).first().waitFor();
      // Past the first periodic refresh too.
      await periodicRefreshes(page, refreshes, 1);
      expect(consoleErrors).toEqual([]);
      expect(await page.locator("#alert").isHidden()).toBe(true);
      await page.close();
    },
  );

  it("shows the overview's figures: metrics, observers by state and health, rules, the intake's rate", async ({
    expect,
  }) => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/#/`);
    const observers = page.getByRole("region", { name: "Observers" }).first();
    // The list gives every observer's health: a failing selector observer and a failing metric's observer.
    await observers.getByText("Failing", { exact: true }).first().waitFor();
    expect(await observers.getByText("Failing", { exact: true }).count()).toBe(2);
    expect(await observers.getByText("Paused", { exact: true }).count()).toBe(1);
    const bySelector = observers.getByRole("row").filter({ hasText: cpuSelector });
    await bySelector.getByText("Healthy", { exact: true }).waitFor();
    await bySelector.getByText("follows 2 metrics now", { exact: false }).waitFor();
    const rules = page.getByRole("region", { name: "Rules" }).first();
    expect(await rules.getByText("Disabled", { exact: true }).count()).toBe(1);
    // The rate comes with the first summary: no second reading needed.
    await page.getByText(/^[\d.]+ data\/s$/).waitFor();
    await page.close();
  });

  it("shows what each way in accepted, refused and skipped", async ({ expect }) => {
    const line = await fetch(`${service.url}/write`, {
      method: "POST",
      body: 'lp_overview,host=vm1 load=0.5,state="ok"\nlp_overview,host=vm1 load=',
    });
    expect(line.status).toBe(400);
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/#/`);
    const routes = page.getByRole("region", { name: "Intake by route" });
    const influx = routes.getByRole("row").filter({ hasText: "InfluxDB 1.x line protocol" });
    await expect
      .poll(async () => (await influx.innerText()).replace(/\s+/g, " "))
      .toMatch(/InfluxDB 1\.x line protocol \/write 1 1 1 string fields/);
    expect(await routes.getByRole("row").filter({ hasText: "/api/v1/write" }).count()).toBe(1);
    await page.close();
  });

  it.for(dashboardPages.filter(({ name }) => name === "overview" || name === "metric"))(
    "keeps its layout while new data arrive and the $name page refreshes",
    async ({ hash, ready, refreshes }, { expect }) => {
      const { page } = await newWatchedPage(browser);
      await page.goto(`${service.url}/${hash}`);
      await page.locator(ready).first().waitFor();
      // Past the first periodic refresh, from which on the page shows all it will (the intake's rate).
      await periodicRefreshes(page, refreshes, 1);
      const shift = await layoutShiftDuring(page, async () => {
        // Two refreshes, each with new data.
        for (let refresh = 0; refresh < 2; refresh += 1) {
          await postLatest(service);
          await periodicRefreshes(page, refreshes, 1);
        }
      });
      // Zero in practice; the bound tolerates a value's text growing by a digit, while a block
      // pushed down by even a few pixels scores well above it.
      expect(shift).toBeLessThan(0.001);
      await page.close();
    },
  );

  it.for(dashboardPages)(
    "does not scroll sideways at a phone's width (375 px): $name",
    async ({ hash, ready }, { expect }) => {
      const { page } = await newWatchedPage(browser, { width: 375, height: 740 });
      await page.goto(`${service.url}/${hash}`);
      await page.locator(ready).first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.close();
    },
  );

  it("reaches the main navigation, the observers' buttons and the form's with Tab, each with a name", async ({
    expect,
  }) => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/#/metrics/CPUUtilization`);
    await page.locator(".observer-card").nth(1).waitFor();
    const reached = await tabOrder(page);
    for (const control of reached) expect(control.name, `a focused ${control.role} has no name`).not.toBe("");
    const names = reached.map(({ role, name }) => `${role} ${name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "link Overview",
        "link Model",
        "link Rules",
        `button Pause observer ${receiver.url}/tower`,
        `button Replay dead data of ${receiver.url}/tower`,
        `button Delete observer ${receiver.url}/tower`,
        // The metric has observers: the form is folded under its button, each attempt log under its own.
        "button Add an observer",
        expect.stringMatching(/^button Attempt log latest: (delivered|failed) /),
      ]),
    );
    await page.close();
  });

  it("draws every class of the model in its column, with a legend of the references drawn", async ({ expect }) => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/#/model`);
    await page.locator(".model-picture .node").first().waitFor();
    const titles = await page.locator(".model-picture .column-title").allTextContents();
    expect(titles).toEqual([
      "Providers and locations (3)",
      "Racks (1)",
      "Nodes (1)",
      "VMs and services (4)",
      "Internal components (3)",
      "Methods (6)",
    ]);
    for (const clazz of ["Location", "Rack", "Node", "PaaSService", "VM"]) {
      expect(await page.locator(`.model-picture .node-${clazz}`).count(), clazz).toBeGreaterThan(0);
    }
    expect(await page.locator(".model-legend li").allTextContents()).toEqual([
      "runs on (→ cloud provider)",
      "is located in (→ location)",
      "holds (rack or cluster → node, node → VM)",
      "requires (component → component)",
      "provides (component → method)",
    ]);
    const rack = page.getByRole("row").filter({ hasText: "rack1" });
    expect((await rack.innerText()).replace(/\s+/g, " ")).toBe("rack1 Rack Rack42 holds blade1");
    await page.close();
  });

  it("moves between pages with the keyboard alone, focusing each page's heading", async ({ expect }) => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/#/`);
    // Signed in (the dashboard follows navigation from then on), the overview shown.
    await page.locator(dashboardPages[0].ready).first().waitFor();
    await page.getByRole("link", { name: "Model" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".model-picture .node").first().waitFor();
    expect(await focusedControl(page)).toEqual({ role: "heading", name: "Model" });
    expect(await page.getByRole("link", { name: "Model" }).getAttribute("aria-current")).toBe("page");
    await page.close();
  });
});
