import { onParentDeath } from "./parent-death.ts";

/*
 * One request to stop can arrive twice: a Ctrl-C in the terminal (or a signal to the whole process
 * group) reaches both npm and the launcher, and npm forwards its own copy to the script it runs.
 * Signals this close to the first one are that same request.
 */
const sameRequestWithinMs = 1_000;

/**
 * On the first SIGINT or SIGTERM, or once this process's parent has died (npm or a supervisor
 * killed, leaving the launcher behind), runs `stop`, then exits 0 (1 if it failed). A later signal
 * exits at once, leaving the children to the kernel (parent-death.ts). Replaces the handlers that
 * libraries installed before: Miniflare's would stop workerd at once and exit, before any draining.
 */
export function onStopSignal(stop: () => Promise<void>): void {
  let firstAt: number | undefined;
  const handle = (cause: string) => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      console.log(`launcher: ${cause}, stopping (send SIGINT or SIGTERM again to stop at once)`);
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("launcher: stopping failed", error);
          process.exit(1);
        },
      );
    } else if (Date.now() - firstAt > sameRequestWithinMs) {
      console.error(`launcher: ${cause} again, stopping at once`);
      process.exit(1);
    }
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => handle(`${signal} received`));
  }
  onParentDeath(() => handle("its parent process died"));
}
