import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { findSetpriv } from "./parent-death.ts";
import { projectRoot } from "./project.ts";

/**
 * The V8 flags of every local workerd. Under a steady load V8 lets a busy isolate hold several
 * times the heap it keeps alive: it collects the old generation only near limits sized for much
 * larger heaps. `--expose-gc` lets the Worker collect its garbage now and then itself
 * (ops/garbage-collection.ts). `--minor-ms` collects the young generation by marking and sweeping
 * it in place instead of copying it between two halves, so the isolate holds no second half in
 * reserve. No flag caps a heap: an isolate that needs more still gets it. A smaller young
 * generation (`--max-semi-space-size`) would hold less still, but makes the agents' intake
 * markedly slower.
 */
export const workerdV8Flags = ["--expose-gc", "--minor-ms"];

const configFilterSource = fileURLToPath(new URL("workerd-config-filter.ts", import.meta.url));
const wrapperScript = fileURLToPath(new URL("workerd-wrapper.sh", import.meta.url));

/**
 * workerd-config-filter.ts as one plain module that node runs at once: run under tsx or bundled at
 * each workerd start, it would delay every start by a large fraction of a second.
 */
function bundleConfigFilter(): string {
  const { outputFiles } = buildSync({
    entryPoints: [configFilterSource],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    outfile: "workerd-config-filter.mjs",
  });
  const directory = join(projectRoot, ".wrangler", "launcher");
  const path = join(directory, "workerd-config-filter.mjs");
  mkdirSync(directory, { recursive: true });
  // Launchers started at once each rename a whole file of their own into place.
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, outputFiles[0]!.contents);
  renameSync(partial, path);
  return path;
}

let configFilter: string | undefined;

/**
 * Makes every workerd that Miniflare starts from now on, in this process or in a child such as
 * `wrangler dev`, start through workerd-wrapper.sh: with `workerdV8Flags`, and dying with the
 * process that started it (when util-linux's setpriv and setsid are there).
 */
export function wrapWorkerd(): void {
  configFilter ??= bundleConfigFilter();
  // The binary of the miniflare the launcher uses, pinned to the version wrangler depends on.
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  Object.assign(process.env, {
    TOWER_WORKERD_BINARY: fromMiniflare("workerd").default,
    TOWER_SETPRIV: findSetpriv() ?? "",
    TOWER_WORKERD_V8_FLAGS: workerdV8Flags.join(" "),
    TOWER_NODE: process.execPath,
    TOWER_WORKERD_CONFIG_FILTER: configFilter,
    MINIFLARE_WORKERD_PATH: wrapperScript,
  });
}
