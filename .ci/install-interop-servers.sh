#!/usr/bin/env bash
# Installs and starts the real receivers the interop tests (test/e2e/interop-relay.test.ts) deliver to,
# all on loopback, in the background:
#   carbon-cache (Debian graphite-carbon): plaintext TCP 127.0.0.1:2003 and UDP 127.0.0.1:2003,
#     whisper files under /var/lib/graphite/whisper (read back with whisper-fetch);
#   influxd (Debian influxdb 1.6): HTTP 127.0.0.1:8086, UDP line protocol 127.0.0.1:8089 into database "interop".
# The tests detect the servers by probing those ports; without them they skip.
# Needs root (apt-get, writing /etc). Idempotent: running it again leaves running servers alone.
# Stop: .ci/install-interop-servers.sh stop
set -euo pipefail

readonly carbon_conf=/etc/carbon/carbon.conf
readonly carbon_pidfile=/var/run/carbon-cache-a.pid
readonly influx_conf=/etc/influxdb/interop.conf
readonly influx_pidfile=/var/run/influxd-interop.pid
readonly influx_log=/var/log/influxdb/interop.log
readonly influx_database=interop

stop_servers() {
  local pidfile
  for pidfile in "$carbon_pidfile" "$influx_pidfile"; do
    start-stop-daemon --stop --quiet --oknodo --retry 10 --pidfile "$pidfile" --remove-pidfile
  done
}

if [[ ${1:-} == stop ]]; then
  stop_servers
  exit 0
fi

# Polls until `probe` succeeds, or gives up after about 30 s naming `what`.
wait_for() {
  local what=$1
  shift
  for _ in $(seq 1 150); do
    if "$@" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "install-interop-servers: $what is not up after 30 s" >&2
  return 1
}

tcp_listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
udp_listening() { ss -Hlun "sport = :$1" | grep -q .; }
influx_ready() { [[ $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8086/ping) == 204 ]]; }

if ! command -v carbon-cache >/dev/null || ! command -v influxd >/dev/null || ! command -v whisper-fetch >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends graphite-carbon python3-whisper influxdb curl iproute2
fi

# carbon-cache: loopback only, UDP listener on (the packaged default has it off).
sed -i \
  -e 's/^ENABLE_UDP_LISTENER *=.*/ENABLE_UDP_LISTENER = True/' \
  -e 's/^\(LINE_RECEIVER_INTERFACE\|UDP_RECEIVER_INTERFACE\|PICKLE_RECEIVER_INTERFACE\|CACHE_QUERY_INTERFACE\) *=.*/\1 = 127.0.0.1/' \
  "$carbon_conf"
if ! start-stop-daemon --status --pidfile "$carbon_pidfile"; then
  # Daemonizes and drops to the packaged _graphite user; logs under /var/log/carbon.
  carbon-cache --config="$carbon_conf" --pidfile="$carbon_pidfile" start
fi

# influxd: a config of its own rather than edits to the packaged one; loopback only, no phoning home.
cat >"$influx_conf" <<EOF
reporting-enabled = false
bind-address = "127.0.0.1:8088"

[meta]
  dir = "/var/lib/influxdb/meta"

[data]
  dir = "/var/lib/influxdb/data"
  wal-dir = "/var/lib/influxdb/wal"

[http]
  bind-address = "127.0.0.1:8086"
  log-enabled = false

[ifql]
  enabled = false

[[udp]]
  enabled = true
  bind-address = "127.0.0.1:8089"
  database = "$influx_database"
  batch-timeout = "200ms"
EOF
if ! start-stop-daemon --status --pidfile "$influx_pidfile"; then
  mkdir -p "$(dirname "$influx_log")"
  start-stop-daemon --start --background --make-pidfile --pidfile "$influx_pidfile" --chuid influxdb \
    --output "$influx_log" --exec /usr/bin/influxd -- -config "$influx_conf"
fi

wait_for "carbon-cache TCP 2003" tcp_listening 2003
wait_for "carbon-cache UDP 2003" udp_listening 2003
wait_for "influxd HTTP 8086" influx_ready
wait_for "influxd UDP 8089" udp_listening 8089
curl -sf -o /dev/null -XPOST http://127.0.0.1:8086/query --data-urlencode "q=CREATE DATABASE $influx_database"

echo "interop servers running: carbon-cache tcp+udp 127.0.0.1:2003, influxd http 127.0.0.1:8086 udp 127.0.0.1:8089 (db $influx_database)"
