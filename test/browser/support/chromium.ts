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
