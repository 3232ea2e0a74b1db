import { spawn } from "node:child_process";
import { once } from "node:events";
import type { Unstable_Config } from "wrangler";
import { projectRoot } from "./project.ts";

/**
 * wrangler.toml's `[build] command`, run before bundling as `wrangler dev` runs it: in a shell,
 * in the project (or `[build] cwd`), with this process's environment and WRANGLER_COMMAND=dev.
 * Its errors always show; its other output only when `verbose`.
 */
export async function runCustomBuild(config: Pick<Unstable_Config, "build">, verbose: boolean): Promise<void> {
  const { command, cwd } = config.build;
  if (!command) return;
  const child = spawn(command, {
    shell: true,
    cwd: cwd ?? projectRoot,
    env: { ...process.env, WRANGLER_COMMAND: "dev" },
    stdio: ["ignore", verbose ? "inherit" : "ignore", "inherit"],
  });
  const [code, signal] = await once(child, "exit");
  if (code !== 0) throw new Error(`the build command of wrangler.toml, \`${command}\`, failed (${code ?? signal})`);
}
