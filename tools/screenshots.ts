import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchChromium, noChromiumMessage } from "../test/browser/support/chromium.ts";
import { cpuMetric, postLive, seedDashboard } from "../test/browser/support/dashboard-data.ts";
import { fleetMetricNames, seedFleet } from "../test/browser/support/fleet-data.ts";
import { startHttpReceiver } from "../test/e2e/support/http-receiver.ts";
import { startService } from "../test/e2e/support/service.ts";
import { projectRoot } from "./start/project.ts";
import { freePort } from "./testing/free-port.ts";

/*
 * `npm run screenshots`: the dashboard's four pages at 1280×800, as docs/screenshots/*.png (the
 * overview at its observers). The service runs as `npm start` runs it, with the data of the browser
 * tests (a model, two metrics, observers in each state, of a metric and by selector, two rules) and data stamped now arriving while the pages are shot.
 * Then the overview at fleet size (fleet.png): 1,000 metrics and 1,000 observers, as the fleet's
 * browser test makes them.
 */

const viewport = { width: 1280, height: 800 };
const outputFolder = join(projectRoot, "docs", "screenshots");

/** The page scrolled to its section titled `title`, below the top bar (Node's types know no DOM: the script is text). */
function scrollToSection(page: Page, title: string): Promise<void> {
  return page.evaluate<void>(
    `(() => {
      const heading = [...document.querySelectorAll("h2")].find((h2) => h2.textContent === ${JSON.stringify(title)});
      const topBar = document.querySelector(".top-bar").getBoundingClientRect().height;
      window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - topBar - 24);
    })()`,
  );
}

/** Each page, what shows that it has its data, and where it is shot when not at its top. */
const pages: {
  name: string;
  hash: string;
  ready: (page: Page) => Promise<unknown>;
  shoot?: (page: Page) => Promise<void>;
}[] = [
  {
    name: "overview",
    hash: "#/",
    ready: (page) => page.getByText(/[\d.]+ data\/s/).waitFor(),
    // Its list of observers: those that follow selectors, with their selectors, and every metric's.
    shoot: (page) => scrollToSection(page, "Observers"),
  },
  {
    name: "metric",
    hash: `#/metrics/${cpuMetric}`,
    ready: (page) => page.locator(".chart-series path").first().waitFor(),
  },
  { name: "model", hash: "#/model", ready: (page) => page.locator(".model-picture .node").first().waitFor() },
  { name: "rules", hash: "#/rules", ready: (page) => page.locator(".rule-card").first().waitFor() },
];

if (!hasChromium) {
  console.error(noChromiumMessage);
  process.exit(1);
}

/** The four pages, on the data of the browser tests, with data stamped now arriving. */
async function shootPages(browser: Browser): Promise<void> {
  // A retry schedule of minutes, so that the failing observer shows a backlog rather than dead data.
  const service = await startService({ RETRY_SCHEDULE: "30,120,600" });
  const receiver = await startHttpReceiver();
  try {
    await seedDashboard(service, {
      healthyUrl: `${receiver.url}/tower`,
      downUrl: `http://127.0.0.1:${await freePort()}/down`,
    });
    const live = postLive(service, 40);
    // The rule's first windows close a few seconds after the live data begin.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const page = await browser.newPage({ viewport });
    for (const { name, hash, ready, shoot } of pages) {
      await page.goto(`${service.url}/${hash}`);
      await ready(page);
      // One more refresh, so that every part of the page has been read twice.
      await page.waitForTimeout(5_500);
      await shoot?.(page);
      const path = join(outputFolder, `${name}.png`);
      await page.screenshot({ path });
      console.log(`wrote ${path}`);
    }
    await live;
  } finally {
    await receiver.close();
    await service.stop();
  }
}

/** The overview of a fleet, at its top (the tiles, the search, the groups, the metrics), on a service of its own. */
async function shootFleet(browser: Browser): Promise<void> {
  const service = await startService();
  const receiver = await startHttpReceiver();
  try {
    await seedFleet(service, receiver.url);
    const page = await browser.newPage({ viewport });
    await page.goto(`${service.url}/#/`);
    await page.getByRole("link", { name: fleetMetricNames[0] }).waitFor();
    const path = join(outputFolder, "fleet.png");
    await page.screenshot({ path });
    console.log(`wrote ${path}`);
  } finally {
    await receiver.close();
    await service.stop();
  }
}

const browser = await launchChromium();
try {
  await mkdir(outputFolder, { recursive: true });
  await shootFleet(browser);
  await shootPages(browser);
} finally {
  await browser.close();
}
