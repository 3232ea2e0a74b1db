import { setTimeout as sleep } from "node:timers/promises";

/** Posting stopped and nothing new arrived for this long: what has not arrived is lost. */
export const quietSeconds = 10;
/** The longest a round posts for, and then waits for its arrivals. */
export const roundTimeoutSeconds = 120;
const pollMs = 20;

/** What a receiver's tally says of a round so far: how many distinct data arrived, and when the last new one did. */
export interface ArrivalProgress {
  readonly distinct: number;
  /** Date.now() of the last new arrival; 0 before any. */
  readonly lastArrival: number;
}

/** Waits until `expected` data arrived at `tally`, or nothing more did for `quietSeconds`, or the round's time is up. */
export async function awaitArrivals(tally: ArrivalProgress, expected: number): Promise<void> {
  const started = Date.now();
  while (tally.distinct < expected) {
    const now = Date.now();
    if (now - Math.max(started, tally.lastArrival) > quietSeconds * 1000) return;
    if (now - started > roundTimeoutSeconds * 1000) return;
    await sleep(pollMs);
  }
}
