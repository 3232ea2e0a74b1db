import type { Browser, Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../tools/testing/free-port.ts";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "../e2e/support/http-receiver.ts";
import { eventually, type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { focusedFieldName, newWatchedPage, scrollsSideways } from "./support/dashboard-page.ts";
import { shownAfterRefreshes } from "./support/refresh-clock.ts";

/*
 * Observers that follow selectors on the dashboard, in Debian's Chromium: the overview lists every
 * observer from the one summary the API answers (a selector observer with its selector and how many
 * metrics it follows, a metric's observer with its metric), failing ones first, a page at a time;
 * its form checks each selector as it is typed, with the service's own parser, and registers the
 * observer; the observer's page shows what it follows and its status, and pauses and resumes it.
 */

if (!hasChromium) console.warn(noChromiumMessage);

const fleetSelector = '{__name__=~"fleet_.*"}';

describe.skipIf(!hasChromium)("observers that follow selectors on the dashboard", () => {
  let service: Service;
  let receiver: HttpReceiver;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  let fleetObserver: string;
  let posted = 0;

  const fleetUrl = () => `${receiver.url}/fleet`;
  const observerRows = (): Locator =>
    page.getByRole("region", { name: "Observers" }).first().locator("tbody").getByRole("row");
  const rowOf = (text: string): Locator => observerRows().filter({ hasText: text });
  const selectorObserver = async (id: string) => (await service.call("GET", `/v1/observers/${id}`)).body;

  async function post(...metrics: string[]): Promise<void> {
    const data = metrics.map((metric) => {
      posted += 1;
      return { id: `fleet-${posted}`, metric, timestamp: Date.now(), value: posted, resourceId: "web-1" };
    });
    expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);
  }

  async function register(body: Record<string, unknown>): Promise<string> {
    const answer = await service.call("POST", "/v1/observers", body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id;
  }

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      service = await startService();
      receiver = await startHttpReceiver();
      fleetObserver = await register({ match: [fleetSelector], format: "TOWER/JSON", callbackUrl: fleetUrl() });
      expect((await service.call("PUT", "/v1/metrics/other_metric")).status).toBe(201);
      const metricObserver = await service.call("POST", "/v1/metrics/other_metric/observers", {
        format: "RDF/JSON",
        callbackUrl: `${receiver.url}/other`,
      });
      expect(metricObserver.status).toBe(201);
      // Two metrics the selector matches, and one it does not.
      await post("fleet_cpu", "fleet_memory", "other_metric");
      await eventually(async () => (await selectorObserver(fleetObserver)).status.delivered === 2, 30_000, {
        what: "both matching data delivered",
      });
    });
    ({ page, consoleErrors } = await newWatchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.stop();
  });

  it("lists every observer from the summary: a selector observer with its selector and the metrics it follows", async () => {
    const paths: string[] = [];
    const record = (request: Request) => paths.push(new URL(request.url()).pathname);
    page.on("request", record);
    await page.goto(`${service.url}/#/`);
    const row = rowOf(fleetSelector);
    await row.getByText("follows 2 metrics now", { exact: false }).waitFor();
    await row.getByText("Healthy", { exact: true }).waitFor();
    expect(await row.getByRole("link", { name: fleetUrl() }).getAttribute("href")).toBe(`#/observers/${fleetObserver}`);
    expect((await row.innerText()).replace(/\s+/g, " ")).toMatch(/TOWER\/JSON · HTTP .* Active Healthy 2 0 0 —/);

    // A metric's observer, with its metric, links to the metric's page where its card is.
    const metricRow = rowOf(`${receiver.url}/other`);
    await metricRow.getByText("other_metric", { exact: true }).waitFor();
    expect(await metricRow.getByRole("link").getAttribute("href")).toBe("#/metrics/other_metric");

    page.off("request", record);
    // One summary per refresh, and no metric nor any metric's observers asked for.
    const summaries = paths.filter((path) => path === "/v1/summary").length;
    expect(summaries).toBeGreaterThanOrEqual(1);
    expect(summaries).toBe(paths.filter((path) => path === "/v1/healthz").length);
    expect(paths.filter((path) => path.startsWith("/v1/metrics/") || path === "/v1/observers")).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("checks each selector as it is typed, showing the parser's message and marking the position", async () => {
    await page.goto(`${service.url}/#/`);
    await page.getByRole("button", { name: "Forward by selector" }).click();
    const selectors = page.getByLabel("Selectors");
    const excerpt = page.locator(".selector-excerpt");

    await selectors.pressSequentially('{job="node"');
    await page.getByText('Line 1: unexpected end of the selector at position 11: expected "," or "}"').waitFor();
    expect(await selectors.getAttribute("aria-invalid")).toBe("true");
    expect(await excerpt.locator("code").textContent()).toBe('{job="node" ');
    expect(await excerpt.locator("mark").textContent()).toBe(" ");

    // Closing the braces makes it a selector: the message goes as the last character is typed.
    await selectors.press("}");
    await expect.poll(() => selectors.getAttribute("aria-invalid")).toBeNull();
    expect(await excerpt.isHidden()).toBe(true);

    // A bad regex on the second line: its line is named, the position in it marked.
    await selectors.fill('fleet_cpu\nup{job=~"(node"}');
    await page.getByText('Line 2: an invalid regex in job=~"(node" at position 8: missing closing )').waitFor();
    expect(await excerpt.locator("mark").textContent()).toBe('"');
    expect(await excerpt.locator("code").textContent()).toBe('up{job=~"(node"}');
  });

  it("shows the service's problems at the selectors, on the line they name", async () => {
    const selectors = page.getByLabel("Selectors");
    await page.getByLabel("Callback URL").fill(`${receiver.url}/refused`);
    // Sent as typed, a blank line left out: the service names the selector by its index, the form by its line.
    await selectors.fill('fleet_cpu\n\n{job=""}');
    await page.getByRole("button", { name: "Add observer" }).click();
    const form = page.locator("form", { has: selectors });
    await form.getByRole("alert").getByText("The observer was not added: correct the fields marked below.").waitFor();
    await page
      .getByText("Line 3: Not a valid selector: every matcher matches the empty string at position 0:", {
        exact: false,
      })
      .waitFor();
    expect(await selectors.getAttribute("aria-invalid")).toBe("true");
    // Focused, with the cursor where the problem is: line 3 begins at 11.
    expect(await focusedFieldName(page)).toBe("match");
    expect(await page.evaluate<number>("document.activeElement.selectionStart")).toBe(11);

    // No selector at all: the service's problem at /match shows at the field.
    await selectors.fill("");
    await page.getByRole("button", { name: "Add observer" }).click();
    await form.getByText("Give match (PromQL series selectors), resources", { exact: false }).waitFor();
    expect(await selectors.getAttribute("aria-invalid")).toBe("true");
    const list = (await service.call("GET", "/v1/observers")).body as { callbackUrl?: string }[];
    expect(list.some((observer) => observer.callbackUrl === `${receiver.url}/refused`)).toBe(false);
  });

  it("registers an observer of a good selector, which the overview then lists", async () => {
    const selectors = page.getByLabel("Selectors");
    await selectors.fill("fleet_memory");
    expect(await selectors.getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel("Format").selectOption("INFLUXDB");
    await page.getByLabel("Callback URL").fill(`${receiver.url}/memory`);
    await page.getByRole("button", { name: "Add observer" }).click();
    await page.getByText(`Observer ${receiver.url}/memory added.`, { exact: false }).waitFor();

    const list = (await service.call("GET", "/v1/observers")).body as { id: string; callbackUrl?: string }[];
    const created = list.find((observer) => observer.callbackUrl === `${receiver.url}/memory`);
    expect(created).toMatchObject({ match: ["fleet_memory"], format: "INFLUXDB", follows: 1 });
    expect(await page.getByRole("link", { name: "Open its page" }).getAttribute("href")).toBe(
      `#/observers/${created?.id}`,
    );
    await rowOf("fleet_memory").getByText("follows 1 metric now", { exact: false }).waitFor();
    expect(await selectors.inputValue()).toBe("");
  });

  it("shows a selector observer's page: what it follows, its status and attempts; pausing and resuming it", async () => {
    // The form's refused registrations were logged as failed requests; from here on, none.
    const errorsBefore = consoleErrors.length;
    await page.goto(`${service.url}/#/observers/${fleetObserver}`);
    await page.getByRole("heading", { name: "Observer by selector" }).waitFor();
    const follows = page.locator(".follows");
    await follows.getByText(fleetSelector, { exact: true }).waitFor();
    await follows.getByText(/^2 metrics: fleet_(cpu|memory), fleet_(cpu|memory)$/).waitFor();
    expect(await follows.getByRole("link", { name: "fleet_cpu" }).getAttribute("href")).toBe("#/metrics/fleet_cpu");

    const card = page.locator(".observer-card");
    await card.getByText("Healthy", { exact: true }).waitFor();
    // Its latest attempts show unfolded.
    await card.getByRole("row").filter({ hasText: "Delivered" }).first().waitFor();
    expect(await card.locator(".stat", { hasText: "Delivered" }).locator("dd").textContent()).toBe("2");

    await card.getByRole("button", { name: `Pause observer ${fleetUrl()}` }).click();
    await card.getByText("Paused", { exact: true }).waitFor();
    expect((await selectorObserver(fleetObserver)).state).toBe("paused");
    expect(await card.getByRole("button", { name: `Retry the backlog of ${fleetUrl()} now` }).isVisible()).toBe(false);

    // Held while paused: the data wait in its backlog, which the page shows.
    await post("fleet_cpu", "fleet_disk");
    await eventually(async () => (await selectorObserver(fleetObserver)).status.backlog === 2);
    await shownAfterRefreshes(page, card.locator(".stat", { hasText: "Backlog" }).getByText("2", { exact: true }));
    // A metric that appeared since: followed too.
    await shownAfterRefreshes(page, follows.getByText(/^3 metrics: /));

    await card.getByRole("button", { name: `Resume observer ${fleetUrl()}` }).click();
    await card.getByText("Active", { exact: true }).waitFor();
    expect((await selectorObserver(fleetObserver)).state).toBe("active");
    await eventually(async () => (await selectorObserver(fleetObserver)).status.backlog === 0);
    await shownAfterRefreshes(page, card.locator(".stat", { hasText: "Delivered" }).getByText("4", { exact: true }));
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);
  });

  it("deletes a selector observer from its page, which then says it is gone", async () => {
    const doomed = await register({ match: ["doomed_metric"], format: "GRAPHITE", callbackUrl: `${receiver.url}/x` });
    await page.goto(`${service.url}/#/observers/${doomed}`);
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: `Delete observer ${receiver.url}/x` }).click();
    await page.getByRole("heading", { name: "No such observer" }).waitFor();
    expect((await service.call("GET", `/v1/observers/${doomed}`)).status).toBe(404);
    expect(await page.locator(".observer-card").count()).toBe(0);
  });

  it("does not scroll sideways at a phone's width (375 px): the observer's page, the overview's form", async () => {
    const phone = await newWatchedPage(browser, { width: 375, height: 740 });
    await phone.page.goto(`${service.url}/#/observers/${fleetObserver}`);
    await phone.page.locator(".observer-card").waitFor();
    expect(await scrollsSideways(phone.page)).toBe(false);
    await phone.page.goto(`${service.url}/#/`);
    await phone.page.getByRole("button", { name: "Forward by selector" }).click();
    await phone.page.getByLabel("Selectors").fill(`{job=~"${"a-very-long-pattern-".repeat(8)}(unclosed"}`);
    await phone.page.locator(".selector-excerpt mark").waitFor();
    expect(await scrollsSideways(phone.page)).toBe(false);
    await phone.page.close();
  });

  it("lists a page of observers at a time, failing ones first", async () => {
    const quiet = (index: number) =>
      register({ match: [`quiet_${index}`], format: "TOWER/JSON", callbackUrl: `${receiver.url}/quiet/${index}` });
    // 52 observers that follow nothing yet, registered 8 at a time.
    for (let start = 0; start < 52; start += 8) {
      await Promise.all(Array.from({ length: Math.min(8, 52 - start) }, (_, offset) => quiet(start + offset)));
    }
    const downUrl = `http://127.0.0.1:${await freePort()}/down`;
    const failing = await register({ match: ["fleet_net"], format: "TOWER/JSON", callbackUrl: downUrl });
    await post("fleet_net");
    await eventually(async () => (await selectorObserver(failing)).status.lastFailureAt !== null, 30_000, {
      what: "the failing observer's failure",
    });
    const total = ((await service.call("GET", "/v1/observers")).body as unknown[]).length;

    await page.goto(`${service.url}/#/`);
    // Until now, the deleted observer's page was answered 404 at each refresh, which the browser logs.
    const errorsBefore = consoleErrors.length;
    await page.getByText(`Showing 1–15 of ${total} observers`, { exact: false }).waitFor();
    expect(await observerRows().count()).toBe(15);
    // Registered last, listed first: it fails.
    expect(await observerRows().first().innerText()).toContain(downUrl);
    await observerRows().first().getByText("Failing", { exact: true }).waitFor();

    // The section, which holds the list's buttons.
    const pages = page.getByRole("region", { name: "Observers" }).first();
    const lastPage = Math.ceil(total / 15);
    for (let shown = 1; shown < lastPage; shown += 1) await pages.getByRole("button", { name: "Next page" }).click();
    await page
      .getByText(`Showing ${(lastPage - 1) * 15 + 1}–${total} of ${total} observers`, { exact: false })
      .waitFor();
    expect(await observerRows().count()).toBe(total - (lastPage - 1) * 15);
    expect(await pages.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await pages.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => observerRows().count()).toBe(15);
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);
  });
});
