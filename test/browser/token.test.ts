import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Service, startService } from "../e2e/support/service.ts";
import { hasChromium, launchChromiumDuring, noChromiumMessage } from "./support/chromium.ts";
import { focusedFieldName, newWatchedPage, replaceSessionItems, sessionItems } from "./support/dashboard-page.ts";

/*
 * The dashboard on a service with authentication on, in Debian's Chromium: the page itself is
 * open and asks for the admin token once; the token is kept in the tab's session, across reloads
 * but not in another tab; a token the API refuses is asked for again, with the API's reason.
 */

if (!hasChromium) console.warn(noChromiumMessage);

const adminToken = "dashboard-admin-token";
const ingestToken = "dashboard-ingest-token";

describe.skipIf(!hasChromium)("the dashboard's token", () => {
  let service: Service;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromiumDuring(async () => {
      service = await startService({ AUTH_DISABLED: "false", ADMIN_TOKEN: adminToken, INGEST_TOKEN: ingestToken });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** The API's answer to GET /v1/metrics with `token`: the detail the page must show. */
  async function refusal(token: string): Promise<string> {
    const response = await fetch(`${service.url}/v1/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect([401, 403]).toContain(response.status);
    return ((await response.json()) as { detail: string }).detail;
  }

  async function signIn(page: Page, token: string): Promise<void> {
    const field = page.getByLabel("Admin token");
    await field.fill(token);
    await page.getByRole("button", { name: "Continue" }).click();
  }

  it("asks for the token with a labelled password field, and shows why a token is refused", async () => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/`);
    const field = page.getByLabel("Admin token");
    await field.waitFor();
    expect(await field.getAttribute("type")).toBe("password");
    expect(await focusedFieldName(page)).toBe("token");

    await signIn(page, "not-a-token");
    await page
      .getByRole("alert")
      .getByText(await refusal("not-a-token"))
      .waitFor();
    // An ingest token may only send data: the page needs an admin's.
    await signIn(page, ingestToken);
    await page
      .getByRole("alert")
      .getByText(await refusal(ingestToken))
      .waitFor();
    expect(await sessionItems(page)).toBe(0);
    await page.close();
  });

  it("keeps the admin token for the tab's session: across reloads, not in another tab", async () => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/`);
    await signIn(page, adminToken);
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    await page.getByText("Signed in with a token").waitFor();

    await page.reload();
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    expect(await page.getByLabel("Admin token").count()).toBe(0);
    await page.goto(`${service.url}/#/model`);
    await page.getByRole("heading", { name: "Model", level: 1 }).waitFor();

    const other = await browser.newPage();
    await other.goto(`${service.url}/`);
    await other.getByLabel("Admin token").waitFor();
    await other.close();

    await page.getByRole("button", { name: "Forget token" }).click();
    await page.getByLabel("Admin token").waitFor();
    expect(await sessionItems(page)).toBe(0);
    await page.close();
  });

  it("asks again when the API refuses the session's token, saying why", async () => {
    const { page } = await newWatchedPage(browser);
    await page.goto(`${service.url}/`);
    await signIn(page, adminToken);
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    // As if the token were revoked: the session holds one the service no longer takes.
    await replaceSessionItems(page, "revoked-token");
    await page.reload();
    await page.getByLabel("Admin token").waitFor();
    await page
      .getByRole("alert")
      .getByText(await refusal("revoked-token"))
      .waitFor();
    expect(await sessionItems(page)).toBe(0);
    await page.close();
  });
});
