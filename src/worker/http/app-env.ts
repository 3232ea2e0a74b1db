import type { Config } from "../config";

/** The Hono environment shared by every route module: the bindings, and the settings read once per request. */
export interface AppEnv {
  Bindings: Env;
  Variables: { config: Config };
}
