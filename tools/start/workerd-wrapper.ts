import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { findSetpriv } from "./parent-death.ts";

/**
 * V8 flags of every isolate of the local workerd. V8 sizes its heaps for a machine's memory, not
 * for a Worker's: under sustained intake it let each isolate's young generation and the garbage
 * of its old one grow to hundreds of MiB before collecting them, and the allocator kept what was
 * freed. Deployed, an isolate has 128 MB; these keep the local one near its live heap.
 */
export const workerdV8Flags = ["--max-semi-space-size=1", "--max-old-space-size=128"];

/**
 * Makes every workerd that Miniflare starts from now on, in this process or in a child such as
 * `wrangler dev`, start through workerd-wrapper.sh: with the V8 flags above, and dying with the
 * process that started it when setpriv is there (see parent-death.ts).
 */
export function wrapWorkerd(): void {
  // The binary of the miniflare the launcher uses, pinned to the version wrangler depends on.
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  process.env.TOWER_WORKERD_BINARY = fromMiniflare("workerd").default;
  process.env.MINIFLARE_WORKERD_PATH = fileURLToPath(new URL("workerd-wrapper.sh", import.meta.url));
  process.env.TOWER_WORKERD_V8_FLAGS = workerdV8Flags.join(" ");
  if (findSetpriv() !== undefined) process.env.TOWER_WORKERD_BOUND_TO_PARENT = "1";
}
