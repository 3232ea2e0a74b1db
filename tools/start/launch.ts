import { randomBytes } from "node:crypto";
import { z } from "zod";
import { readRelayConfig } from "../../src/relay/config.ts";
import { integerSetting, readSettings, SettingsError } from "../../src/shared/settings.ts";
import { configSchema } from "../../src/worker/config.ts";
import { localBindings } from "./local-bindings.ts";
import { assertPortsFree, PortInUseError } from "./port-check.ts";
import { stateDirectory } from "./project.ts";
import { type RelayChild, relayUrl, startRelayChild } from "./relay-child.ts";
import { type ConsoleLevel, logLevelSetting } from "./worker-console.ts";
import { wranglerView } from "./wrangler-view.ts";

const launcherSettings = z.object({ PORT: integerSetting(1, 65_535, 8787), LOG_LEVEL: logLevelSetting });

export const randomToken = () => randomBytes(24).toString("base64url");

/** Where and how the Worker runs under a launcher. */
export interface WorkerSettings {
  /** Its port on 127.0.0.1. */
  port: number;
  stateDir: string;
  /** Its vars and secrets (local-bindings.ts). */
  bindings: Record<string, string>;
  /** How much of its console to show (LOG_LEVEL). */
  consoleLevel: ConsoleLevel;
}

/**
 * What `npm start` and `npm run dev` share: reads the settings, checks that both ports are free,
 * starts the relay child, then the Worker with `startWorker`, and returns both with the Worker's
 * settings (for a restart). Nothing is started when a setting is bad (the launcher's, the relay's,
 * or one the Worker would refuse) or a port is taken, and the relay is stopped again when the
 * Worker fails to start.
 */
export async function launch<W>(
  env: NodeJS.ProcessEnv,
  startWorker: (settings: WorkerSettings) => Promise<W>,
): Promise<{ relay: RelayChild; worker: W; settings: WorkerSettings }> {
  const { PORT: port, LOG_LEVEL: consoleLevel } = readSettings(launcherSettings, env, "launcher");
  const { devVars } = await wranglerView();
  if (Object.keys(devVars).length > 0)
    console.log(`launcher: settings from .dev.vars: ${Object.keys(devVars).join(", ")}`);
  // The relay accepts the token the Worker will send, wherever that comes from.
  const relayToken = devVars.RELAY_TOKEN || env.RELAY_TOKEN || randomToken();
  const relayEnv = { RELAY_ALLOW_PRIVATE: "true", ...env, RELAY_TOKEN: relayToken };
  const relayConfig = readRelayConfig(relayEnv);
  const bindings = localBindings({ env, devVars, relayUrl: relayUrl(relayConfig), relayToken });
  // Rather than a Worker that answers every request 503 with the same message.
  readSettings(configSchema, bindings, "Worker");
  await assertPortsFree([
    { what: "the Worker", host: "127.0.0.1", port },
    { what: "the relay", host: relayConfig.host, port: relayConfig.port },
  ]);
  const relay = await startRelayChild(relayEnv, relayConfig);
  const settings: WorkerSettings = { port, stateDir: stateDirectory(env), bindings, consoleLevel };
  try {
    return { relay, worker: await startWorker(settings), settings };
  } catch (error) {
    await relay.stop();
    throw error;
  }
}

/** Runs a launcher; a bad setting or a taken port is told in its own words, and ends it with code 1. */
export function runLauncher(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof SettingsError || error instanceof PortInUseError ? error.message : error);
    process.exit(1);
  });
}
