#!/bin/sh
# Miniflare runs this in place of workerd (MINIFLARE_WORKERD_PATH, set by workerd-wrapper.ts).
# With TOWER_WORKERD_V8_FLAGS, the configuration Miniflare writes on standard input gets them first
# (workerd-config-filter.ts); workerd reads it from a file already unlinked, as from a pipe.
if [ -n "$TOWER_WORKERD_V8_FLAGS" ]; then
  here=$(dirname "$0")
  config=$(mktemp) || exit 1
  node "$here/run-bundled.mjs" "$here/workerd-config-filter.ts" > "$config" || { rm -f "$config"; exit 1; }
  exec 0< "$config"
  rm -f "$config"
fi
# setpriv: the kernel kills workerd when the process that started it dies, however it dies.
# setsid: workerd gets a session of its own, so that a Ctrl-C in the terminal reaches only the
# launcher, which lets the Worker drain before stopping it; workerd would quit on it at once.
if [ -n "$TOWER_WORKERD_BOUND_TO_PARENT" ]; then
  exec setsid setpriv --pdeathsig KILL -- "$TOWER_WORKERD_BINARY" "$@"
fi
exec "$TOWER_WORKERD_BINARY" "$@"
