import { spawn } from "node:child_process";
import { projectRoot } from "../project.ts";
import { type WatchedProcess, watchProcess } from "./watched-process.ts";

/** Runs the snippet of SNIPPET as a child of its own, passing its output on, and stays. */
const parentBetween = `const child = require("node:child_process").spawn(process.execPath,
  ["--import", "tsx", "--input-type=module", "-e", process.env.SNIPPET], { stdio: "inherit" });
child.on("exit", (code) => process.exit(code ?? 1));`;

/**
 * `code`, an ES module that may import the project's TypeScript modules by absolute path, run by
 * Node in a process of its own; with `parentBetween`, as the child of a process between, which the
 * test may kill to leave the snippet an orphan.
 */
export function runSnippet(code: string, options: { parentBetween?: boolean } = {}): WatchedProcess {
  const args = options.parentBetween ? ["-e", parentBetween] : ["--import", "tsx", "--input-type=module", "-e", code];
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, SNIPPET: code },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return watchProcess(child, "the snippet", 30_000);
}
