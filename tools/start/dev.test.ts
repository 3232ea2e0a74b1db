import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { eventually } from "../../test/e2e/support/service.ts";
import { freePort } from "../testing/free-port.ts";
import { spawnLauncher } from "./testing/launcher-run.ts";
import { descendants, isRunning } from "./testing/process-tree.ts";

it("npm run dev runs wrangler dev and the relay as children that die with it", async () => {
  const [port, relayPort] = [await freePort(), await freePort()];
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-dev-"));
  const launcher = spawnLauncher("dev.ts", {
    PORT: String(port),
    RELAY_PORT: String(relayPort),
    TOWER_STATE_DIR: stateDir,
  });
  try {
    await launcher.waitFor("tower-edge (wrangler dev) listening on");
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${relayPort}/healthz`)).status).toBe(200);
    const all = descendants(launcher.child.pid!);
    expect(all.map((process) => process.command)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/wrangler-dist\/cli\.js dev/),
        expect.stringMatching(/\/workerd serve /),
      ]),
    );

    launcher.child.kill("SIGKILL");

    await eventually(() => all.every((process) => !isRunning(process.pid)), 10_000);
  } finally {
    launcher.child.kill("SIGKILL");
    await rm(stateDir, { recursive: true, force: true });
  }
}, 120_000);
