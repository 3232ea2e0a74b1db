import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { eventually, type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { dashboardModel } from "./support/dashboard-data.ts";
import { newWatchedPage } from "./support/dashboard-page.ts";
import { shownAfterRefreshes } from "./support/refresh-clock.ts";

/*
 * The rules page in Debian's Chromium: a rule document uploaded as a file or pasted is installed,
 * or its problems shown as the API words them; the rule's output metric, once its windows close, is
 * plotted on that metric's page; the rule is disabled and enabled with its button, shows its
 * document, and is deleted with its button.
 */

if (!hasChromium) console.warn(noChromiumMessage);

const rule = "CPUAverage";
const output = "CPUAveragePerVM";

/** Windows of one second, closed a second after their end: output comes a few seconds after the data. */
const ruleDocument = {
  monitoringRules: [
    {
      id: rule,
      timeStep: 1,
      timeWindow: 1,
      allowedLatenessSeconds: 1,
      monitoredTargets: [{ class: "VM" }],
      collectedMetric: { metricName: "CPU" },
      metricAggregation: { aggregateFunction: "Average", groupingClass: "VM" },
      actions: [{ name: "OutputMetric", parameters: { metric: output, resourceId: "ID", value: "METRIC" } }],
    },
  ],
};

/** Resolves once the wall clock is in the second after the one it was in: the rule's next window. */
async function nextWindow(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  await eventually(() => Math.floor(Date.now() / 1000) > second, 2_000, { intervalMs: 10, what: "the next second" });
}

function file(name: string, mimeType: string, text: string) {
  return { name, mimeType, buffer: Buffer.from(text) };
}

describe.skipIf(!hasChromium)("rules on the dashboard", () => {
  let service: Service;
  let browser: Browser;
  let page: Page;

  async function installedRules(): Promise<{ id: string; enabled: boolean }[]> {
    const response = await fetch(`${service.url}/v1/monitoring-rules`, { headers: { accept: "application/json" } });
    return ((await response.json()) as { monitoringRules: { id: string; enabled: boolean }[] }).monitoringRules;
  }

  async function upload(document: ReturnType<typeof file>): Promise<void> {
    await page.getByLabel("Rule document file (XML or JSON)").setInputFiles(document);
    await page.getByRole("button", { name: "Install rules" }).click();
  }

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      service = await startService();
      expect((await service.call("PUT", "/v1/resources", dashboardModel)).status).toBe(204);
    });
    ({ page } = await newWatchedPage(browser));
    await page.goto(`${service.url}/#/rules`);
    await page.getByText("No rules yet", { exact: false }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it("shows the problems of a document the API refuses, in its words, and installs nothing", async () => {
    const broken = `<monitoringRules xmlns="http://www.modaclouds.eu/xsd/1.0/monitoring_rules_schema"><monitoringRule id="x">`;
    const answer = await fetch(`${service.url}/v1/monitoring-rules`, {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body: broken,
    });
    const problem = (await answer.json()) as { detail: string; errors: { path: string; message: string }[] };
    expect(answer.status).toBe(400);

    await upload(file("broken.xml", "application/xml", broken));
    const alert = page.locator(".upload-form").getByRole("alert");
    await alert.getByText(problem.detail).waitFor();
    for (const { path, message } of problem.errors) {
      expect(await alert.textContent()).toContain(path ? `${path}: ${message}` : message);
    }
    expect(await installedRules()).toEqual([]);
  });

  it("installs an uploaded document and lists the rule, enabled, with a link to its output metric", async () => {
    await upload(file("cpu-average.json", "application/json", JSON.stringify(ruleDocument)));
    await page.getByText("Installed the rules of cpu-average.json.").waitFor();
    const card = page.locator(".rule-card", { hasText: rule });
    await card.getByText("Enabled", { exact: true }).waitFor();
    expect(await card.getByRole("link", { name: output }).getAttribute("href")).toBe(`#/metrics/${output}`);
    expect(await page.locator(".upload-form").getByRole("alert").isHidden()).toBe(true);
  });

  it("plots the rule's output metric once its windows close", async () => {
    for (let second = 0; second < 4; second += 1) {
      if (second > 0) await nextWindow();
      const now = Date.now();
      const data = dashboardModel.vMs.map((vm, index) => ({
        id: `cpu-${second}-${vm.id}`,
        metric: "CPU",
        resourceId: vm.id,
        value: 0.2 * (index + 1) + 0.05 * second,
        timestamp: now,
      }));
      expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);
    }
    await page.locator(".rule-card", { hasText: rule }).getByRole("link", { name: output }).click();
    await page.getByRole("heading", { name: output, level: 1 }).waitFor();
    // A line of at least two points: its path moves once (M) and draws on (L).
    const line = page.locator('.chart-series path[d*="L"]').first();
    await shownAfterRefreshes(page, line);
    expect(await line.getAttribute("d")).toMatch(/^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+)+$/);
    const legend = await page.locator(".chart-legend").textContent();
    for (const vm of dashboardModel.vMs) expect(legend).toContain(vm.id);
    expect(
      await page
        .getByRole("img", { name: new RegExp(`^Recent values of ${output}: \\d+ values of 3 resources`) })
        .count(),
    ).toBe(1);
  });

  it("disables and enables the rule with its button: the page shows the state the API has", async () => {
    await page.goto(`${service.url}/#/rules`);
    const card = page.locator(".rule-card", { hasText: rule });
    const ruleEnabled = async () => (await installedRules()).find((installed) => installed.id === rule)?.enabled;

    await card.getByRole("button", { name: `Disable rule ${rule}` }).click();
    await card.getByText("Disabled", { exact: true }).waitFor();
    expect(await ruleEnabled()).toBe(false);

    await card.getByRole("button", { name: `Enable rule ${rule}` }).click();
    await card.getByText("Enabled", { exact: true }).waitFor();
    await eventually(async () => (await ruleEnabled()) === true);
  });

  it("shows a rule's document, as the API answers it", async () => {
    const card = page.locator(".rule-card", { hasText: rule });
    await card.getByText("Rule document (XML)").click();
    const document = await (await fetch(`${service.url}/v1/monitoring-rules/${rule}`)).text();
    expect(document).toContain(`<monitoringRule id="${rule}"`);
    await expect.poll(() => card.locator(".rule-document pre").textContent()).toBe(document);
  });

  it("installs a pasted document, and refuses a file and a pasted document at once", async () => {
    const actions = [
      { name: "OutputMetric", parameters: { metric: "PastedOutput", resourceId: "ID", value: "METRIC" } },
    ];
    const pasted = { monitoringRules: [{ ...ruleDocument.monitoringRules[0]!, id: "Pasted", actions }] };
    const textBox = page.getByLabel("Or paste the document");
    await textBox.fill(JSON.stringify(pasted));
    await page
      .getByLabel("Rule document file (XML or JSON)")
      .setInputFiles(file("also.json", "application/json", "{}"));
    await page.getByRole("button", { name: "Install rules" }).click();
    await page.getByText("Choose a file or paste a document, not both.").waitFor();

    await page.getByLabel("Rule document file (XML or JSON)").setInputFiles([]);
    await page.getByRole("button", { name: "Install rules" }).click();
    await page.getByText("Installed the rules of the pasted document.").waitFor();
    await page.locator(".rule-card", { hasText: "Pasted" }).waitFor();
    expect(await textBox.inputValue()).toBe("");
    expect((await installedRules()).map((installed) => installed.id)).toContain("Pasted");
  });

  it("deletes a rule with its button, once confirmed", async () => {
    const card = page.locator(".rule-card", { hasText: "Pasted" });
    page.once("dialog", (dialog) => dialog.dismiss());
    await card.getByRole("button", { name: "Delete rule Pasted" }).click();
    expect((await installedRules()).map((installed) => installed.id)).toContain("Pasted");

    page.once("dialog", (dialog) => dialog.accept());
    await card.getByRole("button", { name: "Delete rule Pasted" }).click();
    await card.waitFor({ state: "detached" });
    expect((await installedRules()).map((installed) => installed.id)).toEqual([rule]);
  });
});
