import { readFileSync, writeSync } from "node:fs";
import { withV8Flags } from "./workerd-v8-flags.ts";

/*
 * workerd's configuration, from standard input to standard output, with the V8 flags of
 * TOWER_WORKERD_V8_FLAGS (separated by spaces) added: run by workerd-wrapper.sh before workerd.
 */
const flags = (process.env.TOWER_WORKERD_V8_FLAGS ?? "").split(/\s+/).filter((flag) => flag !== "");
const config = withV8Flags(readFileSync(0), flags);
for (let written = 0; written < config.length; ) written += writeSync(1, config, written);
