import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { projectRoot } from "./project.ts";

const parent = join(projectRoot, ".wrangler", "tmp");

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A new directory for one Worker bundle, beside wrangler's own under .wrangler/tmp; one per start,
 * since tests start several Workers at once. Its name holds this process's id, so that the
 * directories of launchers that were killed before they could remove theirs are removed here.
 */
export async function newBundleDirectory(): Promise<string> {
  await mkdir(parent, { recursive: true });
  for (const name of await readdir(parent)) {
    const pid = /^start-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) await rm(join(parent, name), { recursive: true, force: true });
  }
  return mkdtemp(join(parent, `start-${process.pid}-`));
}
