#!/usr/bin/env bash
# Installs Debian's Chromium for the dashboard's browser tests (test/browser), which drive it with
# playwright-core at /usr/bin/chromium; without it those tests skip. No browser is downloaded from
# elsewhere. playwright-core is pinned to the release whose own Chromium has the major version of
# Debian's current one; a Chromium of another major version, or none, is installed or upgraded
# from a fresh package list, since a stale one offers an older release. Whatever version that
# leaves, the check is the tests' own: playwright-core launches it and opens a page.
# Needs root (apt-get). Idempotent: a Chromium of playwright-core's major version is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium_path=/usr/bin/chromium

# Debian's wrapper script may print noise on stderr; the version is the line that names Chromium.
installed_major() {
  "$chromium_path" --version 2>/dev/null | grep -oE 'Chromium [0-9]+' | grep -oE '[0-9]+' || true
}

expected=$(node -e 'const { browsers } = require("./node_modules/playwright-core/browsers.json");
  console.log(browsers.find((browser) => browser.name === "chromium").browserVersion.split(".")[0]);')
installed=$([[ -x $chromium_path ]] && installed_major || true)

if [[ $installed != "$expected" ]]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  installed=$(installed_major)
fi

if ! CHROMIUM_PATH=$chromium_path node -e '
  const { chromium } = require("playwright-core");
  (async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH });
    const page = await browser.newPage();
    await page.setContent("<p>ready</p>");
    if ((await page.textContent("p")) !== "ready") throw new Error("the page did not render");
    await browser.close();
  })().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });'; then
  echo "install-browser: playwright-core cannot drive Debian's Chromium ${installed:-?} (its own is ${expected}):" \
    "pin playwright-core in package.json to the release whose browsers.json names Chromium ${installed:-?}" >&2
  exit 1
fi
echo "chromium ${installed} at ${chromium_path}, driven by playwright-core (its own Chromium is ${expected})"
