import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { eventually } from "../../../test/e2e/support/service.ts";
import { projectRoot } from "../project.ts";

export interface SnippetProcess {
  /** The process this one started: the snippet's, or the parent standing between them. */
  child: ChildProcess;
  /** What the snippet (and the parent between, if any) wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Settles with the child's exit code (null after a signal). */
  exited: Promise<number | null>;
  /** Resolves once the output contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Runs the snippet of SNIPPET as a child of its own, passing its output on, and stays. */
const parentBetween = `const child = require("node:child_process").spawn(process.execPath,
  ["--import", "tsx", "--input-type=module", "-e", process.env.SNIPPET], { stdio: "inherit" });
child.on("exit", (code) => process.exit(code ?? 1));`;

/**
 * `code`, an ES module that may import the project's TypeScript modules by absolute path, run by
 * Node in a process of its own; with `parentBetween`, as the child of a process between, which the
 * test may kill to leave the snippet an orphan.
 */
export function runSnippet(code: string, options: { parentBetween?: boolean } = {}): SnippetProcess {
  const args = options.parentBetween ? ["-e", parentBetween] : ["--import", "tsx", "--input-type=module", "-e", code];
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, SNIPPET: code },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
    waitFor: (text, timeoutMs = 30_000) =>
      eventually(() => output.includes(text), timeoutMs, { what: `output ${JSON.stringify(text)}` }).then(
        () => undefined,
      ),
  };
}
