#!/usr/bin/env bash
# Installs Debian's Chromium for the dashboard's browser tests (test/browser), which drive it with
# playwright-core at /usr/bin/chromium; without it those tests skip. No browser is downloaded from
# elsewhere: playwright-core is pinned to the release whose own Chromium has Debian's major version,
# which this script checks.
# Needs root (apt-get). Idempotent: an installed Chromium is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi

# Debian's wrapper script may print noise on stderr; the version is the line that names Chromium.
installed=$(chromium --version 2>/dev/null | grep -oE 'Chromium [0-9]+' | grep -oE '[0-9]+' || true)
expected=$(node -e 'const { browsers } = require("./node_modules/playwright-core/browsers.json");
  console.log(browsers.find((browser) => browser.name === "chromium").browserVersion.split(".")[0]);')
if [[ $installed != "$expected" ]]; then
  echo "install-browser: Debian's Chromium is ${installed:-unknown}, playwright-core expects ${expected}:" \
    "pin playwright-core to the release for Chromium ${installed:-?} (see package.json)" >&2
fi
echo "chromium ${installed:-unknown} at $(command -v chromium)"
