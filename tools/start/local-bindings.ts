import { settingNames } from "../../src/worker/config.ts";

export interface LocalBindingsInput {
  /** This process's environment: any Worker setting found there applies. */
  env: NodeJS.ProcessEnv;
  /** .dev.vars (see dev-vars.ts); wins over everything else. */
  devVars: Record<string, string>;
  /** Where the relay the launcher starts listens, and its token. */
  relayUrl: string;
  relayToken: string;
}

/**
 * The Worker's vars and secrets under the launcher: local development runs open, lets observers
 * point at loopback and private addresses, and talks to the relay the launcher started; a setting
 * in the environment overrides these, and .dev.vars overrides everything (README, "Configuration").
 */
export function localBindings({ env, devVars, relayUrl, relayToken }: LocalBindingsInput): Record<string, string> {
  // The environment's RELAY_* variables configure the relay started here, not the Worker's view of it.
  const fromEnvironment = settingNames.flatMap((name) =>
    !name.startsWith("RELAY_") && env[name] ? [[name, env[name]]] : [],
  );
  return {
    AUTH_DISABLED: "true",
    ALLOW_PRIVATE_OBSERVERS: "true",
    RELAY_URL: relayUrl,
    RELAY_TOKEN: relayToken,
    ...Object.fromEntries(fromEnvironment),
    ...devVars,
  };
}
