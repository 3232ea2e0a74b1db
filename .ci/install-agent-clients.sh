#!/usr/bin/env bash
# Installs the agents' real clients the intake tests (test/e2e/agents/) send with, from Debian:
# the InfluxDB 1.x CLI (influxdb-client) and Python client (python3-influxdb). Prometheus, which
# the remote-write test runs in agent mode, comes with .ci/install-promtool.sh. Without them those
# tests skip, saying so.
set -euo pipefail

if command -v influx >/dev/null && /usr/bin/python3 -c "import influxdb" 2>/dev/null; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends influxdb-client python3-influxdb >/dev/null
