import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../tools/testing/free-port.ts";
import { findDescendants, ProcessGroup } from "./process-accounting.ts";
import { spawnProgram } from "./spawned-program.ts";

/** `npm start` as its own process tree: where it answers, its Worker runtime, and the whole tree. */
export interface LaunchedService {
  url: string;
  workerd: ProcessGroup;
  /** The launcher and every process under it (workerd, the relay). */
  tree: ProcessGroup;
  stop(): Promise<void>;
}

/** `npm start`'s command, run without npm and its shell so that the child is the launcher itself. */
const launcherArguments = ["tools/start/run-bundled.mjs", "tools/start/start.ts"];
const startTimeoutMs = 120_000;
/** A graceful stop lets Miniflare stop workerd. */
const stopGraceMs = 60_000;

/**
 * A second `npm start`, on free ports with a fresh state directory, running the Worker as deployed
 * (told by a variable only the bench sets: no local entry, so no intake journal), whose processes are found once it answers `/healthz`: where a figure is the
 * whole service's CPU time, the launcher and the relay count with workerd, and nothing of the
 * bench's own process (its clients, its receivers, the Worker it drives itself) does.
 */
export async function launchService(): Promise<LaunchedService> {
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-launched-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    RELAY_PORT: String(await freePort()),
    TOWER_STATE_DIR: stateDir,
    TOWER_BENCH_AS_DEPLOYED: "true",
  };
  try {
    const launcher = await spawnProgram(
      process.execPath,
      launcherArguments,
      env,
      async () => (await fetch(`${url}/healthz`)).ok,
      startTimeoutMs,
    );
    const descendants = findDescendants(launcher.pid, () => true);
    const self = { pid: launcher.pid, comm: "node", cmdline: launcherArguments.join(" ") };
    return {
      url,
      workerd: new ProcessGroup(
        "workerd",
        descendants.filter(({ comm }) => comm === "workerd"),
      ),
      tree: new ProcessGroup("the `npm start` tree", [self, ...descendants]),
      async stop() {
        await launcher.stop("SIGINT", stopGraceMs);
        await rm(stateDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(stateDir, { recursive: true, force: true });
    throw error;
  }
}
