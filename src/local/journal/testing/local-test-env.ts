import { env } from "cloudflare:workers";
import type { LocalEnv } from "../../local-env";

/** The test runtime's bindings: those of the local entry (vitest.config.ts, project "local"). */
export const localTestEnv = env as LocalEnv;
