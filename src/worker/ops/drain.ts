import { usage } from "./usage";

/*
 * Draining, for a graceful stop of the local service: once draining, this isolate takes no more
 * data (the intake answers 503), and the launcher waits until what it queued has been consumed.
 * Counted per isolate, which is the whole local service: one isolate serves it.
 */
let draining = false;
let batchesInFlight = 0;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}

/** Wraps a queue batch's consumption, so that a drain knows when none is under way. */
export async function consumingBatch<T>(work: () => Promise<T>): Promise<T> {
  batchesInFlight += 1;
  try {
    return await work();
  } finally {
    batchesInFlight -= 1;
  }
}

/** What a drain still waits for: messages this isolate queued and has not read back, and batches under way. */
export function drainProgress() {
  return {
    draining,
    intakeMessagesInFlight: usage.queueMessagesWritten - usage.queueMessagesRead,
    batchesInFlight,
  };
}
