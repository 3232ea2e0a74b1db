import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: wrangler.toml, .dev.vars and .wrangler/ live there. */
export const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

export const wranglerConfigPath = `${projectRoot}wrangler.toml`;

/**
 * Where the Worker keeps its Durable Objects and queues: the directory `wrangler dev --persist-to`
 * takes, so that `npm start` and `npm run dev` read and write the same local data.
 * TOWER_STATE_DIR moves it (the launcher's tests run on a state of their own).
 */
export function stateDirectory(env: NodeJS.ProcessEnv): string {
  return env.TOWER_STATE_DIR ? resolve(env.TOWER_STATE_DIR) : `${projectRoot}.wrangler/state`;
}
