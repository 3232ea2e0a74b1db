import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { readRelayConfig, RelayConfigError } from "../../src/relay/config.ts";
import { startRelay } from "../../src/relay/relay.ts";
import { startWorkerProcess } from "./worker-process.ts";

/*
 * `npm start`: the whole service on this machine — the relay in this process and the Worker under
 * `wrangler dev`, its state on disk in .wrangler/state so that it survives a restart. Local
 * development runs open and lets observers point at loopback and private addresses; any of these
 * settings can be overridden in .dev.vars or in the environment (see README, "Configuration").
 */
const workerSettings = [
  "AUTH_DISABLED",
  "ALLOW_PRIVATE_OBSERVERS",
  "ADMIN_TOKEN",
  "INGEST_TOKEN",
  "MAX_BODY_BYTES",
  "MAX_DATA_PER_REQUEST",
  "MAX_OBSERVERS_PER_METRIC",
  "MAX_METRIC_NAME_LENGTH",
  "DELIVERY_TIMEOUT_MS",
  "DELIVERY_MAX_ATTEMPTS",
  "RETRY_BASE_DELAY_SECONDS",
  "RETRY_MAX_DELAY_SECONDS",
];

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
      ...fromEnvironment(workerSettings),
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
  console.error(error instanceof RelayConfigError ? error.message : error);
  process.exit(1);
});
