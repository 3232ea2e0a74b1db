import { describe, expect, it } from "vitest";
import type { DrainState } from "./drain.ts";
import { QueueStallDetector, watchQueue } from "./queue-watchdog.ts";

const progress = (intakeMessagesInFlight: number, batchesStarted: number, batchesInFlight = 0): DrainState => ({
  draining: false,
  intakeRequestsInFlight: 0,
  intakeMessagesInFlight,
  batchesInFlight,
  batchesStarted,
});

/** The detector's verdicts on readings taken at the given times (ms). */
function verdicts(readings: [number, DrainState][], stallMs = 60): boolean[] {
  const detector = new QueueStallDetector(stallMs);
  return readings.map(([at, reading]) => detector.stalled(reading, at));
}

describe("QueueStallDetector", () => {
  it("judges the queue stopped once messages waited for the limit with no batch started", () => {
    expect(
      verdicts([
        [0, progress(5, 3)],
        [30, progress(8, 3)],
        [59, progress(8, 3)],
        [60, progress(8, 3)],
      ]),
    ).toEqual([false, false, false, true]);
  });

  it("does not while batches start, however many messages wait", () => {
    expect(verdicts(Array.from({ length: 10 }, (_, index) => [index * 50, progress(1_000, index)]))).toEqual(
      Array(10).fill(false),
    );
  });

  it("does not while a batch is under way, nor while no message waits", () => {
    expect(
      verdicts([
        [0, progress(5, 3, 1)],
        [100, progress(5, 3, 1)],
        [200, progress(0, 3)],
        [300, progress(0, 3)],
      ]),
    ).toEqual([false, false, false, false]);
  });

  it("counts the wait from the last reading at which a batch had started or nothing waited", () => {
    expect(
      verdicts([
        [0, progress(5, 3)],
        [50, progress(5, 4)],
        [100, progress(5, 4)],
        [110, progress(5, 4)],
        [120, progress(0, 5)],
        [130, progress(2, 5)],
        [179, progress(2, 5)],
        [180, progress(2, 5)],
      ]),
    ).toEqual([false, false, false, true, false, false, false, true]);
  });
});

describe("watchQueue", () => {
  it("reads the progress now and then, acts once the queue stopped, and judges afresh after", async () => {
    const readings = [progress(5, 1), progress(5, 1), progress(5, 1), undefined, progress(5, 1), progress(5, 1)];
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

    // Stopped at the third reading (20 ms after the first); after acting, the watch starts over:
    // the unreadable fourth is skipped, and the fifth and sixth are 10 ms apart, under the limit.
    expect(stalls).toEqual([{ at: 30, reading: progress(5, 1) }]);
  });

  it("ends when stopped, between readings", async () => {
    let reads = 0;
    const watch = watchQueue({
      read: async () => {
        reads += 1;
        return progress(0, 0);
      },
      onStall: async () => {},
      intervalMs: 60_000,
      stallMs: 1,
    });
    await watch.stop();
    expect(reads).toBe(0);
  });
});
