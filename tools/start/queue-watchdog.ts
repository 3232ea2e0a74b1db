import { setTimeout as sleep } from "node:timers/promises";
import { type DrainState, readDrainState } from "./drain.ts";

/**
 * The local queue (Miniflare's) can stop dispatching for good under a load that keeps thousands of
 * messages outstanding: its broker keeps a timer per message, and once its runtime refuses more
 * timers, a failed flush leaves it never flushing again. Nothing in the Worker can restart it, and
 * deployed there is no such queue. So the launcher watches the Worker's queue progress and restarts
 * the Worker when messages wait and no batch comes; the intake journal sends again what the stopped
 * queue held.
 */

/** How long messages written after the last batch may wait with no batch started, or under way, before the queue counts as stopped. */
export const queueStallMs = 60_000;
/** How often the launcher reads the Worker's queue progress. */
export const queueWatchIntervalMs = 5_000;

/**
 * Judges successive readings of the queue's progress: stopped once intake messages written after
 * the last batch started have waited for `stallMs` while no batch started or was under way. A
 * working local queue hands a message to the consumer within its batch timeout (and a retried one
 * at once), so a minute without a batch is no slow consumer. Messages written before the last
 * batch do not count: one that failed all its tries went to the dead-letter queue, never to be
 * acknowledged, and is no sign of a stopped queue.
 */
export class QueueStallDetector {
  private batchesStarted = Number.NaN;
  private writtenByLastBatch = Number.NaN;
  private waitingSince: number | undefined;

  constructor(private readonly stallMs: number) {}

  /** Whether the queue has stopped, as of `progress` read at `now` (ms). */
  stalled(progress: DrainState, now: number): boolean {
    if (progress.batchesStarted !== this.batchesStarted) {
      this.batchesStarted = progress.batchesStarted;
      this.writtenByLastBatch = progress.intakeMessagesWritten;
      this.waitingSince = undefined;
      return false;
    }
    if (progress.batchesInFlight > 0 || progress.intakeMessagesWritten <= this.writtenByLastBatch) {
      this.waitingSince = undefined;
      return false;
    }
    this.waitingSince ??= now;
    return now - this.waitingSince >= this.stallMs;
  }
}

export interface QueueWatch {
  /** The Worker's queue progress; undefined when it cannot be read (the Worker busy, or restarting). */
  read(): Promise<DrainState | undefined>;
  /** What to do once the queue stopped; the watch goes on after it, judging afresh. */
  onStall(progress: DrainState): Promise<void>;
  intervalMs: number;
  stallMs: number;
  now?: () => number;
}

/** Watches the queue until the returned stop is called, which resolves once the watch has ended. */
export function watchQueue(watch: QueueWatch): { stop(): Promise<void> } {
  const now = watch.now ?? Date.now;
  const stopping = new AbortController();
  const watching = (async () => {
    let detector = new QueueStallDetector(watch.stallMs);
    while (!stopping.signal.aborted) {
      await sleep(watch.intervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (stopping.signal.aborted) return;
      const progress = await watch.read();
      if (progress === undefined || !detector.stalled(progress, now())) continue;
      await watch.onStall(progress);
      detector = new QueueStallDetector(watch.stallMs);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await watching;
    },
  };
}

/** The Worker's queue progress on its local control route, undefined when it does not answer. */
export function readQueueProgress(url: string, token: string): Promise<DrainState | undefined> {
  return readDrainState(url, token, "GET").catch(() => undefined);
}
