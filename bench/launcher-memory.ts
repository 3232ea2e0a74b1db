import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { waitUntilHealthy } from "../tools/start/health.ts";
import { freePort } from "../tools/testing/free-port.ts";
import { fixed } from "./markdown.ts";
import { ProcessGroup } from "./process-accounting.ts";
import type { BenchSection } from "./section.ts";

/** `npm start`'s command, run without npm and its shell so that the child is the launcher itself. */
const launcherArguments = ["tools/start/run-bundled.mjs", "tools/start/start.ts"];
/** Long enough for the start's garbage to be collected and for nothing to be under way. */
const idleSeconds = 5;
const startTimeoutMs = 120_000;
const targetMegabytes = 200;
const megabytes = (bytes: number) => bytes / 2 ** 20;

/**
 * The launcher's own resident memory once idle: a second `npm start` of its own, on free ports with
 * a state directory of its own, read from /proc after it answered and then rested; the Worker's
 * runtime and the relay, child processes, are not counted.
 */
export const launcherMemorySection: BenchSection = async ({ targets, progress }) => {
  progress("launcher memory: starting npm start's launcher");
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-launcher-"));
  const port = await freePort();
  const launcher = spawn(process.execPath, launcherArguments, {
    env: { ...process.env, PORT: String(port), RELAY_PORT: String(await freePort()), TOWER_STATE_DIR: stateDir },
    stdio: "ignore",
  });
  try {
    await waitUntilHealthy(`http://127.0.0.1:${port}`, launcher, "npm start's launcher", startTimeoutMs);
    await sleep(idleSeconds * 1000);
    const pid = launcher.pid ?? Number.NaN;
    const resident = megabytes(new ProcessGroup("the launcher", [{ pid, comm: "node", cmdline: "" }]).residentBytes());
    targets.record("launcher-idle-rss", { measured: `${fixed(resident)} MB`, met: resident <= targetMegabytes });
    return [
      `Launcher memory: \`npm start\`'s launcher process (${launcherArguments.join(" ")}), started on free ports ` +
        `with a fresh state directory, answered \`/healthz\` and was then left idle for ${idleSeconds} s: its ` +
        `resident memory (VmRSS) is **${fixed(resident)} MB** (target ≤ ${targetMegabytes} MB), its children ` +
        "(workerd, the relay) not counted.",
    ];
  } finally {
    if (launcher.exitCode === null && launcher.signalCode === null) {
      const exited = once(launcher, "exit");
      launcher.kill("SIGINT");
      await exited;
    }
    await rm(stateDir, { recursive: true, force: true });
  }
};
