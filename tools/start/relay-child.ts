import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import type { RelayConfig } from "../../src/relay/config.ts";
import { waitUntilHealthy } from "./health.ts";
import { boundToParent } from "./parent-death.ts";
import { projectRoot } from "./project.ts";
import { relayRestartPolicy, restartBackoff } from "./restart-backoff.ts";

export interface RelayChild {
  /** Where the Worker reaches it (its RELAY_URL); the same across restarts. */
  url: string;
  /** SIGTERM: the relay finishes the deliveries under way, then exits. No restart after this. */
  stop(): Promise<void>;
}

/** The address the Worker connects to: loopback when the relay listens on every interface. */
export function relayUrl({ host, port }: RelayConfig): string {
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

function spawnRelay(env: NodeJS.ProcessEnv): ChildProcess {
  // Bundled, as the launcher is (run-bundled.mjs): tsx's compiler would stay in its memory.
  const [command, args] = boundToParent(process.execPath, ["tools/start/run-bundled.mjs", "src/relay/main.ts"]);
  // A session of its own: a Ctrl-C in the terminal reaches only the launcher, which stops the
  // relay once the Worker has drained, since draining may still need it.
  return spawn(command, args, { cwd: projectRoot, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
}

/**
 * The relay (src/relay/main.ts) as a child process with `env` as its settings, kept running: once
 * its first run answers /healthz, it is restarted on the same port whenever it exits before
 * stop(), with a growing delay if it keeps exiting quickly.
 */
export async function startRelayChild(env: NodeJS.ProcessEnv, config: RelayConfig): Promise<RelayChild> {
  if (config.port === 0)
    throw new Error("RELAY_PORT must name a port: the Worker keeps one RELAY_URL across relay restarts");
  const url = relayUrl(config);
  const delayAfter = restartBackoff(relayRestartPolicy);
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let child = spawnRelay(env);

  const supervise = (startedAt: number) =>
    child.once("exit", (code, signal) => {
      if (stopping) return;
      const delay = delayAfter(Date.now() - startedAt);
      console.error(`launcher: the relay exited (${code ?? signal}); restarting it in ${delay} ms`);
      restartTimer = setTimeout(() => {
        child = spawnRelay(env);
        supervise(Date.now());
      }, delay);
    });

  const stop = async () => {
    stopping = true;
    clearTimeout(restartTimer);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };

  const startedAt = Date.now();
  try {
    await waitUntilHealthy(url, child, "the relay", 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  supervise(startedAt);
  return { url, stop };
}
