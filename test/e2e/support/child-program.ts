import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A program the tests run beside the service (a backend), with a scratch directory of its own, removed on stop. */
export interface ChildProgram {
  /** What it wrote on stdout and stderr, the latest part: the reason when something does not arrive. */
  log(): string;
  /** Whether it has exited (or could not start). */
  exited(): boolean;
  /** SIGTERM, then SIGKILL if it has not exited within a few seconds; removes its directory. */
  stop(): Promise<void>;
}

/** Enough of a log to see why a backend refused or lost data. */
const keptLogCharacters = 16_000;
const stopGraceMs = 5_000;

/**
 * Starts `binary` with the arguments `argumentsIn` makes of its fresh scratch directory, into which
 * `files` (name → text, e.g. its configuration) are written first. SHOW_WORKER=1 shows its output
 * as it comes.
 */
export async function startChildProgram(
  binary: string,
  argumentsIn: (directory: string) => string[],
  files: Record<string, string> = {},
): Promise<ChildProgram> {
  const directory = await mkdtemp(join(tmpdir(), "tower-backend-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(directory, name), text);
  const child: ChildProcess = spawn(binary, argumentsIn(directory), { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (chunk: string) => {
    if (process.env.SHOW_WORKER) process.stderr.write(chunk);
    log = (log + chunk).slice(-keptLogCharacters);
  };
  child.stdout?.setEncoding("utf8").on("data", keep);
  child.stderr?.setEncoding("utf8").on("data", keep);
  let hasExited = false;
  // A process that could not start emits "error" and never "exit".
  const exit = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      keep(`\n${String(error)}`);
      resolve();
    });
  }).then(() => {
    hasExited = true;
  });
  return {
    log: () => log,
    exited: () => hasExited,
    async stop() {
      if (!hasExited) {
        child.kill("SIGTERM");
        const killing = setTimeout(() => child.kill("SIGKILL"), stopGraceMs);
        await exit;
        clearTimeout(killing);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until `ready` answers true, polling a few times a second; fails after `timeoutMs`, or at
 * once when the program exited, with its log.
 */
export async function untilReady(
  program: ChildProgram,
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (program.exited() || Date.now() > deadline) {
      const why = program.exited() ? "exited" : `not ready within ${timeoutMs} ms`;
      throw new Error(`${what} ${why}; it logged:\n${program.log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
