import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/*
 * Every process the launcher starts dies with it, even when the launcher is killed with SIGKILL
 * and gets no chance to stop them: they run under util-linux's setpriv, which asks the kernel to
 * send them SIGKILL when their parent dies (PR_SET_PDEATHSIG). The launcher itself stops, draining,
 * when its own parent dies (npm, or a supervisor): it notices that it was given another parent.
 */

/** How often a process looks whether its parent is still there. */
const parentCheckIntervalMs = 250;
/** The parent this process started with (read as the launcher's modules load, at its start). */
const startingParent = process.ppid;

function onPath(program: string): string | undefined {
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(directory, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

let setpriv: { path: string | undefined } | undefined;

/** setpriv's path; without it (said once on stderr) children can outlive a killed launcher. */
export function findSetpriv(): string | undefined {
  if (setpriv === undefined) {
    // The workerd wrapper needs setsid as well; both come with util-linux.
    setpriv = { path: onPath("setsid") && onPath("setpriv") };
    if (setpriv.path === undefined) {
      console.error(
        "launcher: setpriv and setsid (util-linux) are not on PATH: the Worker runtime and the relay run " +
          "without them and will outlive this process if it is killed",
      );
    }
  }
  return setpriv.path;
}

/** `command args` as a child that the kernel kills when this process dies. */
export function boundToParent(command: string, args: readonly string[]): [string, string[]] {
  const path = findSetpriv();
  return path ? [path, ["--pdeathsig", "KILL", "--", command, ...args]] : [command, [...args]];
}

/**
 * Calls `then` once, when the parent this process started with has died, even before this call:
 * the kernel then gives it another (init, or a subreaper). The check does not keep the process alive.
 */
export function onParentDeath(then: () => void, intervalMs = parentCheckIntervalMs): void {
  const check = setInterval(() => {
    if (process.ppid === startingParent) return;
    clearInterval(check);
    then();
  }, intervalMs);
  check.unref();
}
