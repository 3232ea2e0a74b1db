import { experimental_readRawConfig, unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { readDevVars } from "./dev-vars.ts";
import { wranglerConfigPath } from "./project.ts";
import type { WranglerView } from "./wrangler-view.ts";

/* The child process of wrangler-view.ts: sends wrangler's view of the project to its parent, and exits. */

const config = unstable_readConfig({ config: wranglerConfigPath });
const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
if (main === undefined) throw new Error(`${wranglerConfigPath} names no main module`);
const { name, build, keep_names, minify, define } = config;
const view: WranglerView = {
  devVars: readDevVars(),
  config: { name, build, keep_names, minify, define },
  main,
  workerOptions,
  rawConfig: experimental_readRawConfig({ config: wranglerConfigPath }).rawConfig,
};
process.send?.(view, () => process.disconnect());
