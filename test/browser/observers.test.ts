import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "../e2e/support/http-receiver.ts";
import { eventually, type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromium, noChromiumMessage } from "./support/chromium.ts";
import { focusedFieldName, newWatchedPage } from "./support/dashboard-page.ts";

/*
 * A metric's page in Debian's Chromium: an observer added through its form receives the data
 * posted next, which then show in its attempt log; its buttons pause and resume it; and the API's
 * validation problems show at the fields they name, in the API's own words.
 */

if (!hasChromium) console.warn(noChromiumMessage);

const metric = "Latency";

describe.skipIf(!hasChromium)("a metric's observers on the dashboard", () => {
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

  const card = (): Locator => page.locator(".observer-card", { hasText: `${receiver.url}/hook` });

  beforeAll(async () => {
    service = await startService();
    receiver = await startHttpReceiver();
    expect((await service.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
    browser = await launchChromium();
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
    await card().getByRole("row").filter({ hasText: "Delivered" }).first().waitFor({ timeout: 30_000 });
    expect(receiver.received.length).toBeGreaterThan(0);
    await card().getByText("Healthy", { exact: true }).waitFor();
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
    await card().locator(".stat", { hasText: "Backlog" }).getByText("2", { exact: true }).waitFor({ timeout: 15_000 });

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
    await form.getByRole("alert").getByText(answer.body.detail).waitFor();
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
  });
});
