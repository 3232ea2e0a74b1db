import { freePort } from "../../testing/free-port.ts";
import { type LauncherRun, type LauncherScript, spawnLauncher } from "./launcher-run.ts";
import { descendants, isRunning } from "./process-tree.ts";

/** What each launcher prints once the service answers. */
const listeningMessage: Record<LauncherScript, string> = {
  "start.ts": "tower-edge listening on",
  "dev.ts": "tower-edge (wrangler dev) listening on",
};

export interface LaunchedService {
  launcher: LauncherRun;
  /** The Worker: http://127.0.0.1:<PORT> */
  url: string;
}

/**
 * Launches tried: a free port is found by binding it and letting it go, and another process (an
 * outgoing connection takes a port from the same range) may take it before the launcher binds it.
 */
const portAttempts = 3;

/**
 * `npm start` (or, with `script`, `npm run dev`) on `stateDir` with the given Worker settings, on
 * free ports of its own; resolves once it says it listens.
 */
export async function launchService(
  stateDir: string,
  settings: Record<string, string> = {},
  script: LauncherScript = "start.ts",
): Promise<LaunchedService> {
  for (let attempt = 1; ; attempt++) {
    const [port, relayPort] = [await freePort(), await freePort()];
    const launcher = spawnLauncher(script, {
      ...settings,
      PORT: String(port),
      RELAY_PORT: String(relayPort),
      TOWER_STATE_DIR: stateDir,
    });
    try {
      await launcher.waitFor(listeningMessage[script]);
      return { launcher, url: `http://127.0.0.1:${port}` };
    } catch (error) {
      // The launcher checks its ports before it starts anything, and says which one was taken.
      if (attempt === portAttempts || !launcher.output().includes("is in use by another process")) throw error;
      await launcher.exited;
    }
  }
}

/** The launcher's process and every process it started (workerd, the relay), by pid. */
export function processTreeOf(launcher: LauncherRun): number[] {
  return [launcher.child.pid!, ...descendants(launcher.child.pid!).map((process) => process.pid)];
}

/**
 * Kills the launcher with SIGKILL, as a crash would, and resolves once it and every process of
 * `tree` are gone; rejects if one is still running after `timeoutMs`. A test that must kill at a
 * precise moment reads the tree beforehand, which takes a while.
 */
export async function killLauncher(
  launcher: LauncherRun,
  timeoutMs = 10_000,
  tree = processTreeOf(launcher),
): Promise<void> {
  launcher.child.kill("SIGKILL");
  await launcher.exited;
  const deadline = Date.now() + timeoutMs;
  while (tree.some(isRunning)) {
    if (Date.now() > deadline) throw new Error(`still running after SIGKILL: ${tree.filter(isRunning).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a launcher that is still running, at once (for cleanup after a failed test). */
export async function stopIfRunning(launcher: LauncherRun | undefined): Promise<void> {
  if (launcher && launcher.child.exitCode === null && launcher.child.signalCode === null) await killLauncher(launcher);
}
