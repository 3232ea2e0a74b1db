import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { freePort } from "../tools/testing/free-port.ts";

const relayMain = fileURLToPath(new URL("../src/relay/main.ts", import.meta.url));
const tsxLoader = createRequire(import.meta.url).resolve("tsx");

export interface RelayProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * The relay in a process of its own, as it runs in production, so that its work and the bench's
 * receivers and clients do not share one event loop.
 */
export async function startRelayProcess(token: string): Promise<RelayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", tsxLoader, relayMain], {
    env: { ...process.env, RELAY_PORT: String(port), RELAY_TOKEN: token, RELAY_ALLOW_PRIVATE: "true" },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the relay exited with code ${child.exitCode}`);
    if (
      await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error("the relay did not start within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
