/**
 * The relay process: `node dist/relay.mjs` (production, after `npm run build:relay`) or
 * `npm run relay` (from source). Configuration comes from RELAY_* environment variables (config.ts).
 */
import { SettingsError } from "../shared/settings.ts";
import { readRelayConfig } from "./config.ts";
import { startRelay } from "./relay.ts";

function readConfigOrExit() {
  try {
    return readRelayConfig(process.env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(`relay: ${error.message}`);
    process.exit(1);
  }
}

const config = readConfigOrExit();
const relay = await startRelay(config);
console.log(`relay: listening on ${relay.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    console.log(`relay: ${signal} received, finishing deliveries under way`);
    // A second signal ends the process at once.
    process.once(signal, () => process.exit(1));
    relay.close().then(
      () => {
        console.log("relay: stopped");
        process.exit(0);
      },
      (error: unknown) => {
        console.error("relay: shutdown failed", error);
        process.exit(1);
      },
    );
  });
}
