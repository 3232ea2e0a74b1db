import { join } from "node:path";
import { build, stop } from "esbuild";
import type { Unstable_Config } from "wrangler";
import { projectRoot } from "./project.ts";

/*
 * The Worker as `wrangler dev` bundles it from wrangler.toml's `main`: one ES module for workerd,
 * packages resolved with the conditions wrangler uses, `cloudflare:` modules left to the runtime,
 * keep_names, minify and define from the configuration, a source map beside it for stack traces.
 */

const nodeEnv = JSON.stringify(process.env.NODE_ENV || "development");

/** Bundles under way in this process. */
let bundling = 0;

/**
 * Writes the bundle into `outdir` and returns the path of its entry module. esbuild's service
 * process is stopped once no bundle is under way, rather than left running beside the launcher for
 * as long as the launcher does.
 */
export async function bundleWorker(
  config: Pick<Unstable_Config, "keep_names" | "minify" | "define">,
  main: string,
  outdir: string,
): Promise<string> {
  bundling += 1;
  try {
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
  } finally {
    bundling -= 1;
    if (bundling === 0) await stop();
  }
  return join(outdir, "index.js");
}
