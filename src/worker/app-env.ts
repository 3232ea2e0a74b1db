import type { Config } from "./config";

/** The Hono environment shared by every route module. */
export interface AppEnv {
  Bindings: Env;
  Variables: { config: Config };
}
