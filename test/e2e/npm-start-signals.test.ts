import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectRoot } from "../../tools/start/project.ts";
import { descendants, isRunning, type ProcessInfo } from "../../tools/start/testing/process-tree.ts";
import { freePort } from "../../tools/testing/free-port.ts";
import { eventually } from "./support/service.ts";

/*
 * `npm start` under a supervisor, which signals npm's own process (not its process group) and may
 * die itself: npm forwards SIGTERM and SIGINT to the launcher, which drains and stops its children;
 * a launcher whose npm died stops likewise.
 */

interface NpmStart {
  npm: ChildProcess;
  output(): string;
  /** The launcher, the relay and workerd, as found once the service listened. */
  processes: { launcher: ProcessInfo; relay: ProcessInfo; workerd: ProcessInfo };
  ports: number[];
  stateDir: string;
}

const runs: NpmStart[] = [];

afterEach(async () => {
  for (const run of runs.splice(0)) {
    for (const { pid } of Object.values(run.processes)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
    if (run.npm.exitCode === null && run.npm.signalCode === null) run.npm.kill("SIGKILL");
    await rm(run.stateDir, { recursive: true, force: true });
  }
});

/** `npm start` on ports and a state directory of its own, once it says it listens. */
async function npmStart(): Promise<NpmStart> {
  const [port, relayPort] = [await freePort(), await freePort()];
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-signals-"));
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(RELAY_|PORT$|TOWER_STATE_DIR$)/.test(name)),
  );
  const npm = spawn("npm", ["start"], {
    cwd: projectRoot,
    env: { ...inherited, PORT: String(port), RELAY_PORT: String(relayPort), TOWER_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  npm.stdout!.on("data", collect);
  npm.stderr!.on("data", collect);
  await eventually(
    () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited (${npm.exitCode}):\n${output}`);
      return output.includes("tower-edge listening on");
    },
    90_000,
    { what: "npm start listening" },
  );
  const all = descendants(npm.pid!);
  const find = (what: string, test: (command: string) => boolean) => {
    const found = all.find(({ command }) => test(command));
    if (found === undefined) throw new Error(`no ${what} among npm start's processes:\n${JSON.stringify(all)}`);
    return found;
  };
  const processes = {
    launcher: find("launcher", (command) => command.includes("run-bundled.mjs tools/start/start.ts")),
    relay: find("relay", (command) => command.includes("src/relay/main.ts")),
    workerd: find("workerd", (command) => /\/workerd serve /.test(command)),
  };
  const run = { npm, output: () => output, processes, ports: [port, relayPort], stateDir };
  runs.push(run);
  return run;
}

/** Whether a connection to the port is refused: nothing listens there any more. */
async function refused(port: number): Promise<boolean> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
  } finally {
    socket.destroy();
  }
}

/**
 * Every process of the run gone, and nothing listening on its ports. (Not a bind of the ports: on a
 * busy machine the kernel may already have given one as the source of another's connection.)
 */
async function expectStopped(run: NpmStart) {
  await eventually(() => Object.values(run.processes).every(({ pid }) => !isRunning(pid)), 40_000, {
    what: "the launcher, the relay and workerd gone",
  });
  for (const port of run.ports) {
    // A socket of a process just killed may take a moment to close on a busy machine. On failure,
    // `ss` names whoever listens there.
    const listener = () => execFileSync("ss", ["-ltnpH", `sport = :${port}`]).toString();
    await eventually(() => refused(port), 10_000, { what: `port ${port} refusing connections (${listener()})` });
  }
}

describe("npm start, signalled as a supervisor does", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to npm's process drains the Worker and stops the launcher, the relay and workerd",
    async (signal) => {
      const run = await npmStart();
      // The launcher is npm's own child: nothing between them that would swallow the signal.
      expect(run.processes.launcher.ppid).toBe(run.npm.pid);

      run.npm.kill(signal);
      await once(run.npm, "exit");
      await expectStopped(run);
      expect(run.output()).toContain(`launcher: ${signal} received, stopping`);
      // The Worker answered the drain: workerd, in a session of its own, got no signal itself.
      expect(run.output()).not.toContain("could not drain");
      expect(run.output()).toContain("relay: stopped");
    },
    180_000,
  );
});

describe("npm start, its supervisor gone", () => {
  it("stops, draining, once npm is killed with SIGKILL", async () => {
    const run = await npmStart();
    run.npm.kill("SIGKILL");

    await expectStopped(run);
    expect(run.output()).toContain("launcher: its parent process died, stopping");
    expect(run.output()).not.toContain("could not drain");
    expect(run.output()).toContain("relay: stopped");
  }, 180_000);

  it("leaves no relay and no workerd once the launcher is killed with SIGKILL", async () => {
    const run = await npmStart();
    process.kill(run.processes.launcher.pid, "SIGKILL");

    await expectStopped(run);
    if (run.npm.exitCode === null && run.npm.signalCode === null) await once(run.npm, "exit");
  }, 180_000);
});
