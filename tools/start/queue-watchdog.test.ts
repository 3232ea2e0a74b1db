import { describe, expect, it } from "vitest";
import type { DrainState } from "./drain.ts";
import { QueueStallDetector, watchQueue } from "./queue-watchdog.ts";

/** A reading: messages written and batches started so far, batches under way. */
const progress = (intakeMessagesWritten: number, batchesStarted: number, batchesInFlight = 0): DrainState => ({
  draining: false,
  intakeRequestsInFlight: 0,
  intakeMessagesInFlight: 0,
  batchesInFlight,
  intakeMessagesWritten,
  batchesStarted,
});

/** The detector's verdicts on readings taken at the given times (ms). */
function verdicts(readings: [number, DrainState][], stallMs = 60): boolean[] {
  const detector = new QueueStallDetector(stallMs);
  return readings.map(([at, reading]) => detector.stalled(reading, at));
}

describe("QueueStallDetector", () => {
  it("judges the queue stopped once messages written after the last batch waited for the limit", () => {
    const readings: [number, DrainState][] = [
      [0, progress(5, 3)],
      [10, progress(8, 3)],
      [40, progress(9, 3)],
      [69, progress(12, 3)],
      [70, progress(12, 3)],
    ];
    expect(verdicts(readings)).toEqual([false, false, false, false, true]);
  });

  it("does not while batches start, however many messages are written", () => {
    const readings = Array.from({ length: 10 }, (_, index): [number, DrainState] => [
      index * 50,
      progress(index * 1_000, index),
    ]);
    expect(verdicts(readings)).toEqual(Array(10).fill(false));
  });

  it("does not while a batch is under way, and counts the wait again after it", () => {
    const readings: [number, DrainState][] = [
      [0, progress(5, 3)],
      [10, progress(8, 3, 1)],
      [100, progress(9, 3, 1)],
      [110, progress(9, 3)],
      [169, progress(9, 3)],
      [170, progress(9, 3)],
    ];
    expect(verdicts(readings)).toEqual([false, false, false, false, false, true]);
  });

  it("does not for messages written before the last batch, which may have gone to the dead-letter queue", () => {
    const readings = Array.from({ length: 10 }, (_, index): [number, DrainState] => [index * 50, progress(7, 4)]);
    expect(verdicts(readings)).toEqual(Array(10).fill(false));
  });
});

describe("watchQueue", () => {
  it("reads the progress now and then, acts once the queue stopped, and judges afresh after", async () => {
    const readings = [progress(5, 1), progress(6, 1), progress(6, 1), progress(6, 1), undefined, progress(7, 1)];
    let clock = 0;
    const stalls: { at: number; reading: DrainState }[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const watch = watchQueue({
      read: async () => {
        clock += 10;
        if (readings.length === 0) done();
        return readings.shift();
      },
      onStall: async (reading) => {
        stalls.push({ at: clock, reading });
      },
      intervalMs: 1,
      stallMs: 20,
      now: () => clock,
    });
    await finished;
    await watch.stop();

    // A message written by the second reading has waited 20 ms at the fourth: stopped. After acting,
    // the watch starts over: the unreadable fifth is skipped, and the sixth is its first reading.
    expect(stalls).toEqual([{ at: 40, reading: progress(6, 1) }]);
  });

  it("ends when stopped, between readings", async () => {
    let reads = 0;
    const watch = watchQueue({
      read: async () => {
        reads += 1;
        return progress(1, 0);
      },
      onStall: async () => {},
      intervalMs: 60_000,
      stallMs: 1,
    });
    await watch.stop();
    expect(reads).toBe(0);
  });
});
