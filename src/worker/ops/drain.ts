import { usage } from "../common/usage";

/*
 * Draining, for a graceful stop of the local service: once draining, this isolate takes no more
 * data (the intake answers 503), and the launcher waits until what was accepted has been consumed.
 * Counted per isolate, which is the whole local service: one isolate serves it.
 */
let draining = false;
let batchesInFlight = 0;
/** Consumer batches started: the launcher's watch on the local queue sees it move (tools/start/queue-watchdog.ts). */
let batchesStarted = 0;
let intakeRequestsInFlight = 0;
/** Intake messages a consumer acknowledged: a retried message is not consumed yet. */
let intakeMessagesConsumed = 0;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}

/** Runs `work` counted as one, so that a drain waits until none is under way. */
function counted<T>(change: (by: number) => void): (work: () => Promise<T>) => Promise<T> {
  return async (work) => {
    change(1);
    try {
      return await work();
    } finally {
      change(-1);
    }
  };
}

/** Wraps a queue batch's consumption, so that a drain knows when none is under way. */
export function consumingBatch<T>(work: () => Promise<T>): Promise<T> {
  batchesStarted += 1;
  return counted<T>((by) => {
    batchesInFlight += by;
  })(work);
}

/**
 * Wraps an intake request from the moment it passed the draining check until it is answered: its
 * data may still be on their way to the queue, unseen by the queue's counters.
 */
export function acceptingIntake<T>(work: () => Promise<T>): Promise<T> {
  return counted<T>((by) => {
    intakeRequestsInFlight += by;
  })(work);
}

export function intakeMessagesAcknowledged(count: number): void {
  intakeMessagesConsumed += count;
}

/**
 * What a drain still waits for: intake requests under way, messages this isolate queued and no
 * consumer acknowledged yet, and batches under way; and the messages queued and batches started
 * so far, by which the launcher sees whether the local queue moves.
 */
export function drainProgress() {
  return {
    draining,
    intakeRequestsInFlight,
    intakeMessagesInFlight: usage.queueMessagesWritten - intakeMessagesConsumed,
    batchesInFlight,
    intakeMessagesWritten: usage.queueMessagesWritten,
    batchesStarted,
  };
}
