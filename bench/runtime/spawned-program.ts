import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";

/** A program the bench runs beside the service: its process, and how to stop it. */
export interface SpawnedProgram {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Sends `signal` (SIGTERM unless said) and resolves once it exited; SIGKILL after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const readyPollMs = 100;

/**
 * Starts `binary` with `args`, its output discarded, and resolves once `ready` answers true
 * (polled a few times a second; a throw counts as not yet). Fails, with the program stopped, when
 * it exits first or is not ready within `timeoutMs`.
 */
export async function spawnProgram(
  binary: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<SpawnedProgram> {
  const child = spawn(binary, args, { env, stdio: "ignore" });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const program: SpawnedProgram = {
    child,
    pid: child.pid ?? Number.NaN,
    async stop(signal = "SIGTERM", graceMs = 10_000) {
      if (exited() || child.pid === undefined) return;
      const exit = once(child, "exit");
      child.kill(signal);
      const killing = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exit;
      clearTimeout(killing);
    },
  };
  const failed = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`${binary} exited (${code ?? signal}) before it was ready`)));
  });
  failed.catch(() => undefined);
  const deadline = Date.now() + timeoutMs;
  try {
    while (!(await Promise.race([ready().catch(() => false), failed]))) {
      if (Date.now() > deadline) throw new Error(`${binary} was not ready within ${timeoutMs} ms`);
      await sleep(readyPollMs);
    }
  } catch (error) {
    await program.stop("SIGKILL");
    throw error;
  }
  return program;
}
