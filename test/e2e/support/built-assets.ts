import { unstable_readConfig } from "wrangler";
import { runCustomBuild } from "../../../tools/start/custom-build.ts";
import { wranglerConfigPath } from "../../../tools/start/project.ts";

/**
 * A vitest globalSetup: wrangler.toml's [build] command (the dashboard's and the docs page's
 * static assets), run once before the tests of a project rather than before each of its services.
 */
export default async function buildStaticAssets(): Promise<void> {
  await runCustomBuild(unstable_readConfig({ config: wranglerConfigPath }), false);
}
