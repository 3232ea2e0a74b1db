import type { Locator, Page, Request } from "playwright-core";

/*
 * The dashboard refreshes its page on a timer, a few seconds after the previous refresh ends. A test
 * page's clock is Playwright's (newWatchedPage installs it): time flows as usual, and a test that
 * waits for refreshes moves the clock on instead of waiting for the timer.
 */

/**
 * How far the clock moves at a time: the dashboard's refresh interval (a longer one takes more
 * steps). A refresh that is due comes at once; while one is under way, the next one's timer is not
 * set yet, so the clock moves on again until a refresh comes.
 */
const clockStep = 5_000;
/** How long a step waits for the page's answer before the clock moves on again. */
const answerWait = 250;
/** As long as the slowest thing a page waits for may take on a loaded machine: a rule's windows closing. */
const timeout = 60_000;

/**
 * Waits until the page has made `count` more periodic refreshes, each complete, moving its clock on
 * rather than waiting for them. `refreshPath` is the path of the request with which each refresh of
 * the page starts. A refresh is complete once the next one starts: the next is scheduled only then.
 */
export async function periodicRefreshes(page: Page, refreshPath: string, count: number): Promise<void> {
  const startsRefresh = (request: Request) => new URL(request.url()).pathname === refreshPath;
  let started = 0;
  const countStart = (request: Request) => {
    if (startsRefresh(request)) started += 1;
  };
  page.on("request", countStart);
  try {
    await moveClockUntil(
      page,
      async () => {
        await page.waitForRequest(startsRefresh, { timeout: answerWait }).catch(ignoreTimeout);
        return started > count;
      },
      `${count} periodic refreshes, starting with ${refreshPath}`,
    );
  } finally {
    page.off("request", countStart);
  }
}

/** Waits until `locator` shows, moving the page's clock on so that its periodic refreshes come at once. */
export async function shownAfterRefreshes(page: Page, locator: Locator): Promise<void> {
  await moveClockUntil(
    page,
    async () => {
      try {
        await locator.waitFor({ timeout: answerWait });
        return true;
      } catch (error) {
        ignoreTimeout(error);
        return false;
      }
    },
    `${locator} after the page's refreshes`,
  );
}

/** Moves the clock on a step at a time until `metAfterStep` (which waits a little for the page) holds. */
async function moveClockUntil(page: Page, metAfterStep: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    await page.clock.fastForward(clockStep);
    if (await metAfterStep()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeout} ms`);
  }
}

function ignoreTimeout(error: unknown): void {
  if (!(error instanceof Error && error.name === "TimeoutError")) throw error;
}
