import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { numberedData, observeMetric, postData } from "../../test/e2e/support/monitoring-traffic.ts";
import { eventually } from "../../test/e2e/support/service.ts";
import { freePort } from "../testing/free-port.ts";
import { projectRoot } from "./project.ts";
import { filesContaining } from "./testing/files-containing.ts";
import { type LauncherRun, spawnLauncher } from "./testing/launcher-run.ts";
import { descendants, isRunning, type ProcessInfo } from "./testing/process-tree.ts";

/*
 * `npm start` as a user runs it: one process tree, the Worker under Miniflare and the relay as a
 * child, on ports and a state directory of the test's own.
 */

const answers = (url: string) =>
  fetch(`${url}/healthz`).then(
    (response) => response.ok,
    () => false,
  );

interface Started {
  launcher: LauncherRun;
  workerUrl: string;
  relayUrl: string;
  relayToken: string;
  stateDir: string;
}

async function start(): Promise<Started> {
  const [port, relayPort] = [await freePort(), await freePort()];
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-start-"));
  const relayToken = `start-test-${randomBytes(12).toString("hex")}`;
  const launcher = spawnLauncher("start.ts", {
    PORT: String(port),
    RELAY_PORT: String(relayPort),
    RELAY_TOKEN: relayToken,
    TOWER_STATE_DIR: stateDir,
  });
  await launcher.waitFor("tower-edge listening on");
  return {
    launcher,
    workerUrl: `http://127.0.0.1:${port}`,
    relayUrl: `http://127.0.0.1:${relayPort}`,
    relayToken,
    stateDir,
  };
}

/** workerd and the relay among the launcher's descendants; fails if either is missing. */
function children(launcher: LauncherRun): { workerd: ProcessInfo; relay: ProcessInfo; all: ProcessInfo[] } {
  const all = descendants(launcher.child.pid!);
  const workerd = all.find((process) => /\/workerd serve /.test(process.command));
  const relay = all.find((process) => process.command.includes("src/relay/main.ts"));
  expect(workerd, "workerd among the launcher's descendants").toBeDefined();
  expect(relay, "the relay among the launcher's descendants").toBeDefined();
  return { workerd: workerd!, relay: relay!, all };
}

async function expectAllGone(processes: readonly ProcessInfo[], urls: readonly string[]) {
  await eventually(async () => {
    const answering = await Promise.all(urls.map(answers));
    return processes.every((process) => !isRunning(process.pid)) && !answering.includes(true);
  }, 10_000);
}

const tokenFiles = (started: Started, since: number) => [
  ...filesContaining(tmpdir(), started.relayToken, since),
  ...filesContaining(join(projectRoot, ".wrangler", "tmp"), started.relayToken, since),
];

describe("a running npm start", () => {
  let started: Started;
  const since = Date.now();

  beforeAll(async () => {
    started = await start();
  });

  afterAll(async () => {
    if (started?.launcher.child.exitCode === null) started.launcher.child.kill("SIGKILL");
    await rm(started?.stateDir, { recursive: true, force: true });
  });

  it("serves the Worker and the relay", async () => {
    const health = await fetch(`${started.workerUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    expect(await answers(started.relayUrl)).toBe(true);
  });

  it("tells of a failed delivery in one line, without a line per attempt nor Miniflare's own log", async () => {
    const closedPort = await freePort();
    const observerId = await observeMetric(started.workerUrl, "start.console", `http://127.0.0.1:${closedPort}/`);
    await postData(started.workerUrl, numberedData("start.console", "d", 1));

    await started.launcher.waitFor(
      `delivery to observer ${observerId} of "start.console" failed (HTTP, attempt 1, 1 data)`,
    );
    expect(started.launcher.output()).not.toContain('{"event":"delivery.attempt"');
    expect(started.launcher.output()).not.toMatch(/\[mf:info\]|Ready on/);
  });

  it("writes the relay token to no file", () => {
    expect(tokenFiles(started, since)).toEqual([]);
  });

  it("restarts the relay on the same port when it dies", async () => {
    const { relay } = children(started.launcher);
    process.kill(relay.pid, "SIGKILL");

    await started.launcher.waitFor("the relay exited (SIGKILL); restarting it");
    await eventually(() => answers(started.relayUrl));
    expect(children(started.launcher).relay.pid).not.toBe(relay.pid);
  });

  it("on SIGINT stops its children, frees its ports and exits 0", async () => {
    const { all } = children(started.launcher);
    started.launcher.child.kill("SIGINT");

    expect(await started.launcher.exited).toBe(0);
    expect(started.launcher.output()).toContain("relay: stopped");
    await expectAllGone(all, [started.workerUrl, started.relayUrl]);
  });
});

it("leaves no process and no file with the relay token behind when killed with SIGKILL", async () => {
  const since = Date.now();
  const started = await start();
  try {
    const { all } = children(started.launcher);
    started.launcher.child.kill("SIGKILL");

    await expectAllGone(all, [started.workerUrl, started.relayUrl]);
    expect(tokenFiles(started, since)).toEqual([]);
  } finally {
    await rm(started.stateDir, { recursive: true, force: true });
  }
}, 120_000);

it("refuses to start on settings the Worker would refuse, naming each with the form it expects", async () => {
  const [port, relayPort] = [await freePort(), await freePort()];
  const launcher = spawnLauncher("start.ts", {
    AUTH_DISABLED: "yes",
    MAX_BODY_BYTES: "1MB",
    PORT: String(port),
    RELAY_PORT: String(relayPort),
  });

  expect(await launcher.exited).toBe(1);
  expect(launcher.output()).toContain(
    [
      "invalid Worker configuration:",
      '  AUTH_DISABLED: expected "true" or "false"',
      "  MAX_BODY_BYTES: expected a whole number of bytes from 1 to 104857600, such as 1048576",
    ].join("\n"),
  );
  expect(launcher.output()).not.toContain("listening");
  expect(await answers(`http://127.0.0.1:${relayPort}`)).toBe(false);
});

describe("refuses to start when a port is taken", () => {
  let taken: Server;
  let takenPort: number;

  beforeAll(async () => {
    taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    takenPort = (taken.address() as { port: number }).port;
  });

  afterAll(() => new Promise((resolve) => taken.close(resolve)));

  it.each([
    ["PORT", "the Worker"],
    ["RELAY_PORT", "the relay"],
  ])("%s, saying so and starting nothing", async (setting, what) => {
    const other = setting === "PORT" ? "RELAY_PORT" : "PORT";
    const otherPort = await freePort();
    const launcher = spawnLauncher("start.ts", { [setting]: String(takenPort), [other]: String(otherPort) });

    expect(await launcher.exited).toBe(1);
    expect(launcher.output()).toContain(`127.0.0.1:${takenPort} (${what}) is in use by another process`);
    expect(await answers(`http://127.0.0.1:${otherPort}`)).toBe(false);
  });
});
