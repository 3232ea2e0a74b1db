import { join } from "node:path";
import { build } from "esbuild";
import type { Unstable_Config } from "wrangler";
import { projectRoot } from "./project.ts";

/*
 * The Worker as `wrangler dev` bundles it from wrangler.toml's `main`: one ES module for workerd,
 * packages resolved with the conditions wrangler uses, `cloudflare:` modules left to the runtime,
 * keep_names, minify and define from the configuration, a source map beside it for stack traces.
 */

const nodeEnv = JSON.stringify(process.env.NODE_ENV || "development");

/** Writes the bundle into `outdir` and returns the path of its entry module. */
export async function bundleWorker(config: Unstable_Config, main: string, outdir: string): Promise<string> {
  await build({
    entryPoints: [main],
    absWorkingDir: projectRoot,
    outdir,
    entryNames: "index",
    bundle: true,
    format: "esm",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*"],
    keepNames: config.keep_names ?? true,
    minify: config.minify,
    sourcemap: true,
    define: {
      "process.env.NODE_ENV": nodeEnv,
      "global.process.env.NODE_ENV": nodeEnv,
      "globalThis.process.env.NODE_ENV": nodeEnv,
      ...config.define,
    },
  });
  return join(outdir, "index.js");
}
