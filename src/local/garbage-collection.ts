/*
 * The local runtime exposes V8's `gc()` to the Worker (the launcher starts workerd with
 * --expose-gc). Under a steady load V8 collects the old generation only when it nears a limit far
 * above what the isolate keeps alive, so the local service held many times its live heap; a full
 * collection of a small live heap costs little, and done now and then it keeps the heap near its
 * live size. A full collection costs in proportion to what is alive, which grows with the requests
 * in flight: an isolate that handles events at a moderate rate collects four times a second, and so
 * holds a quarter of a second's garbage; one that handles them fast, whose many requests in flight
 * would make each collection dear and whose young generation V8 collects often anyway, collects
 * once a second. Deployed, there is no `gc()` and no local entry to call it, and the platform
 * manages its isolates' memory.
 */

/** How often at most the isolate collects its garbage while it has work. */
export interface CollectionPace {
  /** At most once per this many milliseconds while events arrive at a moderate rate... */
  intervalMs: number;
  /** ...and at most once per this many while they arrive faster than `busyEventsPerSecond`. */
  busyIntervalMs: number;
  busyEventsPerSecond: number;
}

const collectionPace: CollectionPace = { intervalMs: 250, busyIntervalMs: 1_000, busyEventsPerSecond: 60 };

/**
 * Calls `collect` at the `pace`, measured with `now`, whenever the returned function is called: on
 * each event the isolate handles, so an idle isolate does no collecting. The rate of events is that
 * since the last collection.
 */
export function collectingNowAndThen(
  collect: (() => void) | undefined,
  pace: CollectionPace,
  now: () => number,
): () => void {
  if (collect === undefined) return () => {};
  let lastCollection = Number.NEGATIVE_INFINITY;
  let events = 0;
  return () => {
    events += 1;
    const time = now();
    const elapsed = time - lastCollection;
    if (elapsed < pace.intervalMs) return;
    const busy = events > (pace.busyEventsPerSecond * elapsed) / 1_000;
    if (busy && elapsed < pace.busyIntervalMs) return;
    lastCollection = time;
    events = 0;
    collect();
  };
}

/** This isolate's, with the runtime's `gc()` if exposed. */
export const collectGarbageNowAndThen = collectingNowAndThen(
  (globalThis as { gc?: () => void }).gc,
  collectionPace,
  Date.now,
);
