import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { eventually } from "../../../test/e2e/support/service.ts";
import { projectRoot } from "../project.ts";

export interface LauncherRun {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Settles with its exit code (null after a signal). */
  exited: Promise<number | null>;
  /** Resolves once its output contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** `npm start` (start.ts) or `npm run dev` (dev.ts). */
export type LauncherScript = "start.ts" | "dev.ts";

const scriptPaths: Record<LauncherScript, string> = {
  "start.ts": fileURLToPath(new URL("../start.ts", import.meta.url)),
  "dev.ts": fileURLToPath(new URL("../dev.ts", import.meta.url)),
};
const runBundled = fileURLToPath(new URL("../run-bundled.mjs", import.meta.url));

/**
 * A launcher without npm, as its npm script runs it (run-bundled.mjs), with the given settings and
 * none of this process's own launcher or relay settings.
 */
export function spawnLauncher(script: LauncherScript, env: Record<string, string>): LauncherRun {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(RELAY_|PORT$|TOWER_STATE_DIR$)/.test(name)),
  );
  const child = spawn(process.execPath, [runBundled, scriptPaths[script]], {
    cwd: projectRoot,
    env: { ...inherited, ...env },
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
    async waitFor(text, timeoutMs = 90_000) {
      await eventually(() => {
        if (output.includes(text)) return true;
        if (child.exitCode !== null) throw new Error(`the launcher exited (${child.exitCode}):\n${output}`);
        return false;
      }, timeoutMs);
    },
  };
}
