import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { eventually } from "../../../test/e2e/support/service.ts";

/** A child process whose output a test reads and waits on. */
export interface WatchedProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Settles with its exit code (null after a signal). */
  exited: Promise<number | null>;
  /** Resolves once its output contains `text`; fails at once if it exited without. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Collects a child's output (started with stdout and stderr piped) from now on. */
export function watchProcess(child: ChildProcess, what: string, defaultTimeoutMs: number): WatchedProcess {
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    exited,
    async waitFor(text, timeoutMs = defaultTimeoutMs) {
      await eventually(
        () => {
          if (output.includes(text)) return true;
          if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${output}`);
          return false;
        },
        timeoutMs,
        { what: `output ${JSON.stringify(text)}` },
      );
    },
  };
}
