import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { projectRoot } from "../project.ts";
import { type WatchedProcess, watchProcess } from "./watched-process.ts";

export type LauncherRun = WatchedProcess;

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
  return watchProcess(child, "the launcher", 90_000);
}
