import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatumInput, rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "../e2e/support/http-receiver.ts";
import { eventually, type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { focusedFieldName, newWatchedPage } from "./support/dashboard-page.ts";
import { shownAfterRefreshes } from "./support/refresh-clock.ts";

/*
 * A metric's page in Debian's Chromium: an observer added through its form receives the data
 * posted next, which then show in its attempt log; its buttons pause and resume it; the API's
 * validation problems show at the fields they name, in the API's own words; an observer shows
 * whether it signs and which headers it sends. The chart's time axis reads at any span, and the
 * page of a metric the service does not know offers to declare it.
 */

if (!hasChromium) console.warn(noChromiumMessage);

const metric = "Latency";

describe.skipIf(!hasChromium)("a metric's page on the dashboard", () => {
  let service: Service;
  let receiver: HttpReceiver;
  let browser: Browser;
  let page: Page;
  let posted = 0;

  async function post(count: number): Promise<void> {
    const data = Array.from({ length: count }, () => {
      posted += 1;
      return { id: `latency-${posted}`, metric, timestamp: Date.now(), value: posted, resourceId: "frontend1" };
    });
    expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);
  }

  /** Posts `data` of `name` and waits until the metric's recent data hold them all, as its chart will. */
  async function postAndWait(name: string, data: DatumInput[]): Promise<void> {
    expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);
    await eventually(async () => (await service.call("GET", `/v1/metrics/${name}/data`)).body?.length === data.length);
  }

  const card = (): Locator => page.locator(".observer-card", { hasText: `${receiver.url}/hook` });

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      service = await startService();
      receiver = await startHttpReceiver();
      expect((await service.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
    });
    ({ page } = await newWatchedPage(browser));
    await page.goto(`${service.url}/#/metrics/${metric}`);
    await page.getByText("No observers yet", { exact: false }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.stop();
  });

  it("adds an observer through the form, which then receives the data posted and logs the delivery", async () => {
    await page.getByLabel("Format").selectOption("TOWER/JSON");
    await page.getByLabel("Callback URL").fill(`${receiver.url}/hook`);
    await page.getByRole("button", { name: "Add observer" }).click();
    await page.getByText(`Observer ${receiver.url}/hook added.`).waitFor();
    await card().waitFor();
    const [observer] = (await service.call("GET", `/v1/metrics/${metric}/observers`)).body;
    expect(observer).toMatchObject({ format: "TOWER/JSON", callbackUrl: `${receiver.url}/hook`, state: "active" });

    await post(3);
    // The attempt log is folded under a line that names the latest attempt.
    const log = card().getByRole("button", { name: /^Attempt log/ });
    await shownAfterRefreshes(page, log.filter({ hasText: /latest: delivered/ }));
    expect(await log.getAttribute("aria-expanded")).toBe("false");
    await log.click();
    await card().getByRole("row").filter({ hasText: "Delivered" }).first().waitFor();
    expect(receiver.received.length).toBeGreaterThan(0);
    await card().getByText("Healthy", { exact: true }).waitFor();
    await card().getByText("Not signed · no extra headers").waitFor();
  });

  it("pauses and resumes the observer with its buttons: the page shows the state the API has", async () => {
    const [observer] = (await service.call("GET", `/v1/metrics/${metric}/observers`)).body;
    const observerPath = `/v1/metrics/${metric}/observers/${observer.id}`;

    await card()
      .getByRole("button", { name: /^Pause observer/ })
      .click();
    await card().getByText("Paused", { exact: true }).waitFor();
    expect((await service.call("GET", observerPath)).body.state).toBe("paused");

    // Held while paused: the data wait in the backlog, which the page shows.
    await post(2);
    await eventually(async () => (await service.call("GET", observerPath)).body.status.backlog === 2);
    await shownAfterRefreshes(page, card().locator(".stat", { hasText: "Backlog" }).getByText("2", { exact: true }));

    await card()
      .getByRole("button", { name: /^Resume observer/ })
      .click();
    await card().getByText("Active", { exact: true }).waitFor();
    expect((await service.call("GET", observerPath)).body.state).toBe("active");
    await eventually(async () => (await service.call("GET", observerPath)).body.status.backlog === 0);
  });

  it("shows the API's validation problem at the field it names, and its detail above the form", async () => {
    const badUrl = "not a URL";
    const answer = await service.call("POST", `/v1/metrics/${metric}/observers`, {
      format: "RDF/JSON",
      callbackUrl: badUrl,
    });
    expect(answer.status).toBe(400);
    const [problem] = answer.body.errors as { path: string; message: string }[];
    expect(problem?.path).toBe("/callbackUrl");

    await page.getByLabel("Format").selectOption("RDF/JSON");
    const callbackUrl = page.getByLabel("Callback URL");
    await callbackUrl.fill(badUrl);
    await page.getByRole("button", { name: "Add observer" }).click();
    const form = page.locator("form", { has: callbackUrl });
    // Every problem shows at its field: the banner says so, rather than point at a list.
    await form.getByRole("alert").getByText("The observer was not added: correct the fields marked below.").waitFor();
    expect(await form.getByRole("alert").getByRole("listitem").count()).toBe(0);
    expect(await callbackUrl.getAttribute("aria-invalid")).toBe("true");
    // The message is the field's description: read with it, and shown beside it.
    const described = (await callbackUrl.getAttribute("aria-describedby"))?.split(" ") ?? [];
    const messages = await Promise.all(described.map((id) => page.locator(`#${id}`).textContent()));
    expect(messages).toContain(problem?.message);
    expect(await focusedFieldName(page)).toBe("callbackUrl");
  });

  it("shows a socket observer's port problem at the port field", async () => {
    await page.getByLabel("Protocol").selectOption("TCP");
    await page.getByLabel("Host", { exact: true }).fill("127.0.0.1");
    const port = page.getByLabel("Port", { exact: true });
    await port.fill("seventy");
    await page.getByRole("button", { name: "Add observer" }).click();
    await page.getByText("The observerPort must be an integer from 1 to 65535.").waitFor();
    expect(await port.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Callback URL").isHidden()).toBe(true);
    // TCP and UDP deliveries are never signed: no secret is offered.
    expect(await page.getByLabel("Secret (optional)").isHidden()).toBe(true);
    await page.getByLabel("Protocol").selectOption("HTTP");
    expect(await page.getByLabel("Secret (optional)").isVisible()).toBe(true);
  });

  it("shows that an observer signs and which headers it sends, never the secret or a header's value", async () => {
    const secret = "a-secret-of-the-observer-0123";
    const registered = await service.call("POST", `/v1/metrics/${metric}/observers`, {
      callbackUrl: `${receiver.url}/signed`,
      secret,
      headers: { Authorization: "Token abc" },
    });
    expect(registered.status).toBe(201);
    const signed = page.locator(".observer-card", { hasText: `${receiver.url}/signed` });
    await shownAfterRefreshes(page, signed.getByText("Signed (Standard Webhooks) · extra headers: Authorization"));
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain(secret);
    expect(text).not.toContain("Token abc");
  });

  it("labels the time axis of years of data with a bounded number of years", async () => {
    const yearly = "Yearly";
    const data = Array.from({ length: 13 }, (_, index) => ({
      id: `yearly-${index}`,
      metric: yearly,
      timestamp: Date.UTC(2014 + index, 5, 1),
      value: index,
      resourceId: "frontend1",
    }));
    await postAndWait(yearly, data);
    await page.goto(`${service.url}/#/metrics/${yearly}`);
    const labels = page.locator(".chart-axis text");
    await labels.first().waitFor();
    const texts = await labels.allTextContents();
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(texts.length).toBeLessThanOrEqual(14);
    for (const text of texts) expect(text).toMatch(/^20\d\d$/);
    const years = texts.map(Number);
    expect(years).toEqual([...years].sort((a, b) => a - b));
    expect(years[0]).toBeLessThanOrEqual(2016);
    expect(years.at(-1)).toBeGreaterThanOrEqual(2024);
    // No two labels overlap.
    const boxes = await page.evaluate<{ left: number; right: number }[]>(
      `[...document.querySelectorAll(".chart-axis text")].map((text) => {
        const box = text.getBoundingClientRect();
        return { left: box.left, right: box.right };
      })`,
    );
    for (const [index, box] of boxes.entries()) {
      if (index > 0) expect(box.left).toBeGreaterThan(boxes[index - 1]!.right);
    }
    // The chart's description dates its span (the day may be the one before, west of Greenwich).
    expect(await page.getByRole("img", { name: /from \d+ (May|Jun) 2014, .* to \d+ (May|Jun) 2026, / }).count()).toBe(
      1,
    );
  });

  it("dates the time axis of a span that crosses days", async () => {
    const start = Date.UTC(2025, 10, 24, 6);
    const data = Array.from({ length: 10 }, (_, index) => ({
      id: `hourly-${index}`,
      metric: "Hourly",
      timestamp: start + index * 4 * 3_600_000,
      value: index,
      resourceId: "frontend1",
    }));
    await postAndWait("Hourly", data);
    await page.goto(`${service.url}/#/metrics/Hourly`);
    const labels = page.locator(".chart-axis text");
    await labels.first().waitFor();
    const texts = await labels.allTextContents();
    expect(texts.length).toBeGreaterThanOrEqual(2);
    // Of another year than this one: with the year.
    for (const text of texts) expect(text).toMatch(/^\d{1,2} Nov 2025( \d\d:\d\d)?$/);
  });

  it("offers to declare a metric the service does not know, instead of its chart and observers", async () => {
    const unknown = "NotYetDeclared";
    await page.goto(`${service.url}/#/metrics/${unknown}`);
    await page.getByRole("heading", { name: "No such metric" }).waitFor();
    expect(await page.locator(".chart").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Add observer" }).isVisible()).toBe(false);
    expect(await page.locator("#alert").isHidden()).toBe(true);

    await page.getByRole("button", { name: `Declare the metric ${unknown}` }).click();
    await page.getByText("No observers yet", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Add observer" }).waitFor();
    expect(await page.getByRole("heading", { name: "No such metric" }).isVisible()).toBe(false);
    expect((await service.call("GET", `/v1/metrics/${unknown}`)).status).toBe(200);
  });
});
