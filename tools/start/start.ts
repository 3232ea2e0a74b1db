import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { readRelayConfig } from "../../src/relay/config.ts";
import { SettingsError } from "../../src/shared/settings.ts";
import { startRelay } from "../../src/relay/relay.ts";
import { settingNames } from "../../src/worker/config.ts";
import { startWorkerProcess } from "./worker-process.ts";

/*
 * `npm start`: the whole service on this machine — the relay in this process and the Worker under
 * `wrangler dev`, its state on disk in .wrangler/state so that it survives a restart. Local
 * development runs open and lets observers point at loopback and private addresses; any of these
 * settings can be overridden in .dev.vars or in the environment (see README, "Configuration").
 */
function fromEnvironment(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
}

async function main() {
  const port = Number(process.env.PORT ?? 8787);
  const relayToken = process.env.RELAY_TOKEN ?? randomBytes(24).toString("base64url");
  const relay = await startRelay(
    readRelayConfig({ RELAY_ALLOW_PRIVATE: "true", ...process.env, RELAY_TOKEN: relayToken }),
  );
  console.log(`relay listening on ${relay.url}`);
  const worker = await startWorkerProcess({
    port,
    persistTo: fileURLToPath(new URL("../../.wrangler/state", import.meta.url)),
    vars: {
      AUTH_DISABLED: "true",
      ALLOW_PRIVATE_OBSERVERS: "true",
      RELAY_URL: relay.url,
      RELAY_TOKEN: relayToken,
      // The relay settings name the relay started here.
      ...fromEnvironment(settingNames.filter((name) => !name.startsWith("RELAY_"))),
    },
    useDevVars: true,
  });
  console.log(`tower-edge listening on ${worker.url} (Ctrl-C stops it)`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    await relay.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
});
