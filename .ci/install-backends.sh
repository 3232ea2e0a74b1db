#!/usr/bin/env bash
# Installs the metric backends the backend tests (test/e2e/backends/) deliver to and read back
# from, from Debian: VictoriaMetrics (victoria-metrics). Prometheus, their other remote-write
# backend, comes with .ci/install-promtool.sh, InfluxDB with .ci/install-interop-servers.sh. The
# tests start each backend themselves, on a free port with a scratch directory; without it they
# skip, saying so. Idempotent: nothing is done when the binary is there.
set -euo pipefail

if [[ -x /usr/bin/victoria-metrics ]]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends victoria-metrics >/dev/null
# The package starts its server where an init system runs; the tests start their own.
if command -v service >/dev/null; then service victoria-metrics stop >/dev/null 2>&1 || true; fi
command -v victoria-metrics
