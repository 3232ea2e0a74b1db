import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium (`apt-get install chromium`), driven by playwright-core, whose release is the
 * one whose own Chromium has the same major version. No browser is ever downloaded.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const hasChromium = existsSync(chromiumPath);

export const noChromiumMessage =
  `browser tests skipped: no Chromium at ${chromiumPath}. ` +
  "Install Debian's (apt-get install chromium, as .ci/install-browser.sh does) or set CHROMIUM_PATH.";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath });
}

/**
 * Chromium, launched while `prepare` runs (a service starting, its data), since each takes seconds.
 * Both are waited for; when `prepare` fails, the browser is closed, as no test will use it.
 */
export async function launchChromiumDuring(prepare: () => Promise<void>): Promise<Browser> {
  const [launched, prepared] = await Promise.allSettled([launchChromium(), prepare()]);
  if (prepared.status === "rejected") {
    if (launched.status === "fulfilled") await launched.value.close();
    throw prepared.reason;
  }
  if (launched.status === "rejected") throw launched.reason;
  return launched.value;
}
