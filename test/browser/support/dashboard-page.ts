import type { Browser, Page } from "playwright-core";

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions of the page, as they came. */
  consoleErrors: string[];
}

/**
 * A new tab (its own session storage) that records what the page reports as errors. Its clock is
 * Playwright's, installed before the page loads: time flows as usual until a test moves it on
 * (refresh-clock.ts).
 */
export async function newWatchedPage(
  browser: Browser,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  await page.clock.install();
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { page, consoleErrors };
}

/** The controls Tab reaches from the top of the page, in order, until focus leaves the page. */
export async function tabOrder(page: Page, most = 60): Promise<{ role: string; name: string }[]> {
  const reached: { role: string; name: string }[] = [];
  for (let press = 0; press < most; press += 1) {
    await page.keyboard.press("Tab");
    const control = await focusedControl(page);
    if (!control) break;
    reached.push(control);
  }
  return reached;
}

/**
 * Each page of the dashboard, an element that shows it has its data, and the path of the request
 * with which each of its refreshes starts.
 */
export const dashboardPages = [
  { name: "overview", hash: "#/", ready: "table a[href='#/metrics/CPUUtilization']", refreshes: "/v1/summary" },
  {
    name: "metric",
    hash: "#/metrics/CPUUtilization",
    ready: ".chart-series path",
    refreshes: "/v1/metrics/CPUUtilization",
  },
  { name: "model", hash: "#/model", ready: ".model-picture .node", refreshes: "/v1/resources" },
  { name: "rules", hash: "#/rules", ready: ".rule-card", refreshes: "/v1/monitoring-rules" },
  { name: "collectors", hash: "#/collectors", ready: "tbody th[scope='row']", refreshes: "/v1/data-collector-states" },
] as const;

/**
 * The role and accessible name of the focused element, as Playwright's accessibility snapshot
 * computes them (the first line of the snapshot: `- button "Pause observer …"`, quoted as YAML when
 * it must be); undefined when
 * focus has left the page.
 */
export async function focusedControl(page: Page): Promise<{ role: string; name: string } | undefined> {
  const focused = page.locator("*:focus");
  if ((await focused.count()) === 0) return undefined;
  const snapshot = await focused.ariaSnapshot();
  // A line that YAML would misread (a name with ": ", as a time has) comes single-quoted.
  const quoted = /^- '((?:[^']|'')*)'/.exec(snapshot)?.[1];
  const line = quoted === undefined ? snapshot : `- ${quoted.replaceAll("''", "'")}`;
  const [, role = "", name = ""] = /^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line) ?? [];
  return { role, name: name.replace(/\\(.)/g, "$1") };
}

/*
 * What the page's own scripts see, read as expressions: Node's type checking knows no DOM.
 */

/** Whether the page is wider than its window, i.e. scrolls sideways. */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>("document.documentElement.scrollWidth > window.innerWidth");
}

/** How many items the tab's session storage holds. */
export function sessionItems(page: Page): Promise<number> {
  return page.evaluate<number>("sessionStorage.length");
}

/** Puts `value` in place of every item of the tab's session storage. */
export function replaceSessionItems(page: Page, value: string): Promise<void> {
  return page.evaluate<void>(
    `(() => { for (let i = 0; i < sessionStorage.length; i += 1) sessionStorage.setItem(sessionStorage.key(i), ${JSON.stringify(value)}); })()`,
  );
}

/**
 * How much the page's layout shifted (the browser's layout-shift score, as in Cumulative Layout
 * Shift) while `during` ran and the page went on refreshing, user input aside.
 */
export async function layoutShiftDuring(page: Page, during: () => Promise<void>): Promise<number> {
  await page.evaluate<void>(
    `(() => {
      window.measuredShift = 0;
      window.addShifts = (entries) => {
        for (const entry of entries) if (!entry.hadRecentInput) window.measuredShift += entry.value;
      };
      window.shiftObserver = new PerformanceObserver((entries) => window.addShifts(entries.getEntries()));
      window.shiftObserver.observe({ type: "layout-shift" });
    })()`,
  );
  await during();
  // The browser measures a shift when it renders the next frame, which a screenshot makes it do
  // now; the observer may not have been told of it yet, so its pending entries are taken too.
  await page.screenshot();
  return page.evaluate<number>(
    "(() => { window.addShifts(window.shiftObserver.takeRecords()); return window.measuredShift; })()",
  );
}

/** The name attribute of the focused element. */
export function focusedFieldName(page: Page): Promise<string | null> {
  return page.locator("*:focus").getAttribute("name");
}
