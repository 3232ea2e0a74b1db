#!/bin/sh
# Miniflare runs this in place of workerd (MINIFLARE_WORKERD_PATH, set by workerd-wrapper.ts).
# The configuration Miniflare writes on standard input first gets the V8 flags of
# TOWER_WORKERD_V8_FLAGS; it goes through a file, so that workerd can still replace this shell.
# setpriv: the kernel kills workerd when the process that started it dies, however it dies.
# setsid: workerd gets a session of its own, so that a Ctrl-C in the terminal reaches only the
# launcher, which lets the Worker drain before stopping it; workerd would quit on it at once.
if [ -n "$TOWER_WORKERD_V8_FLAGS" ]; then
  config=$(mktemp) || exit 1
  "$TOWER_NODE" "$TOWER_WORKERD_CONFIG_FILTER" >"$config" || { rm -f "$config"; exit 1; }
  exec <"$config"
  rm -f "$config"
fi
if [ -n "$TOWER_SETPRIV" ]; then
  exec setsid "$TOWER_SETPRIV" --pdeathsig KILL -- "$TOWER_WORKERD_BINARY" "$@"
fi
exec "$TOWER_WORKERD_BINARY" "$@"
