#!/bin/sh
# Miniflare runs this in place of workerd (MINIFLARE_WORKERD_PATH, set by workerd-wrapper.ts).
# setsid: workerd gets a session of its own, so that a Ctrl-C in the terminal reaches only the
# launcher, which lets the Worker drain before stopping it; workerd would quit on it at once.
# setpriv: the kernel kills workerd when the process that started it dies, however it dies.
exec setsid setpriv --pdeathsig KILL -- "$TOWER_WORKERD_BINARY" "$@"
