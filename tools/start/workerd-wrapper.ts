import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { findSetpriv } from "./parent-death.ts";

/**
 * The V8 flags of every local workerd. Under a steady load V8 lets a busy isolate hold several
 * times the heap it keeps alive: it collects the old generation only near limits sized for much
 * larger heaps. `--expose-gc` lets the Worker collect its garbage now and then itself (`gc()`).
 * `--minor-ms` collects the young generation by marking and sweeping
 * it in place instead of copying it between two halves, so the isolate holds no second half in
 * reserve. No flag caps a heap: an isolate that needs more still gets it. A smaller young
 * generation (`--max-semi-space-size`) would hold less still, but makes the agents' intake
 * markedly slower.
 */
export const workerdV8Flags = ["--expose-gc", "--minor-ms"];

const boundScript = fileURLToPath(new URL("workerd-bound.sh", import.meta.url));

/**
 * Makes every workerd that Miniflare starts from now on, in this process or in a child such as
 * `wrangler dev`, run with `workerdV8Flags` (MINIFLARE_WORKERD_V8_FLAGS, which the installed
 * miniflare has from patches/workers-sdk-14702-miniflare-v8-flags-env.patch), and start through
 * workerd-bound.sh: in a session of its own, dying with the process that started it (when
 * util-linux's setpriv and setsid are there).
 */
export function wrapWorkerd(): void {
  process.env.MINIFLARE_WORKERD_V8_FLAGS = workerdV8Flags.join(" ");
  if (findSetpriv() === undefined) return;
  // The binary of the miniflare the launcher uses, pinned to the version wrangler depends on.
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  process.env.TOWER_WORKERD_BINARY = fromMiniflare("workerd").default;
  process.env.MINIFLARE_WORKERD_PATH = boundScript;
}
