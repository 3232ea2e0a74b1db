/** Restart policy of a supervised child that should run for as long as the launcher does. */
export interface RestartPolicy {
  /** The delay after an exit that followed a steady run. */
  firstDelayMs: number;
  /** Each quick exit in a row doubles the delay, up to this. */
  maxDelayMs: number;
  /** A run at least this long was steady: the next exit starts again from firstDelayMs. */
  steadyRunMs: number;
}

export const relayRestartPolicy: RestartPolicy = { firstDelayMs: 200, maxDelayMs: 10_000, steadyRunMs: 10_000 };

/**
 * The delays before restarting a child, one per exit, given how long it ran before exiting. Quick
 * exits in a row (a port taken meanwhile, a broken build) wait longer and longer, so that a child
 * that dies as soon as it starts is not restarted in a tight loop.
 */
export function restartBackoff(policy: RestartPolicy): (ranForMs: number) => number {
  let quickExits = 0;
  return (ranForMs) => {
    quickExits = ranForMs < policy.steadyRunMs ? quickExits + 1 : 0;
    return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** quickExits);
  };
}
