#!/usr/bin/env bash
# Installs promtool (Debian's prometheus package) for the test that checks the service's
# /prometheus and the relay's /metrics with `promtool check metrics`; without it that test skips.
# Only the binary is needed: the package's server is not started.
set -euo pipefail

if command -v promtool >/dev/null; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# The package starts its server where an init system runs; CI needs only promtool.
if command -v service >/dev/null; then service prometheus stop >/dev/null 2>&1 || true; fi
command -v promtool
