import { unstable_getVarsForDev } from "wrangler";
import { wranglerConfigPath } from "./project.ts";

/**
 * The developer's own local settings: .dev.vars beside wrangler.toml, or the .env files when there
 * is none, found and parsed by wrangler exactly as `wrangler dev` does. Empty when neither exists.
 */
export function readDevVars(): Record<string, string> {
  const bindings = unstable_getVarsForDev(wranglerConfigPath, undefined, {}, undefined, true);
  return Object.fromEntries(
    Object.entries(bindings).flatMap(([name, binding]) =>
      binding.type === "secret_text" ? [[name, binding.value]] : [],
    ),
  );
}
