/*
 * The local runtime exposes V8's `gc()` to the Worker (the launcher starts workerd with
 * --expose-gc). Under a steady load V8 collects the old generation only when it nears a limit far
 * above what the isolate keeps alive, so the local service held many times its live heap; a full
 * collection of a small live heap costs little, and done now and then it keeps the heap near its
 * live size. Four times a second rather than once: the heap then holds a quarter of a second's
 * garbage instead of a second's, for a cost that stays small beside a busy isolate's work (the
 * bench's soak and agent rows, docs/BENCHMARKS.md). Deployed, there is no `gc()`, and the platform
 * manages its isolates' memory.
 */

/** How often at most the isolate collects its garbage while it has work. */
export const collectionIntervalMs = 250;

/**
 * Calls `collect` at most once per `intervalMs`, measured with `now`, whenever the returned
 * function is called: on each event the isolate handles, so an idle isolate does no collecting.
 */
export function collectingNowAndThen(
  collect: (() => void) | undefined,
  intervalMs: number,
  now: () => number,
): () => void {
  if (collect === undefined) return () => {};
  let lastCollection = Number.NEGATIVE_INFINITY;
  return () => {
    const time = now();
    if (time - lastCollection < intervalMs) return;
    lastCollection = time;
    collect();
  };
}

/** This isolate's, with the runtime's `gc()` if exposed. */
export const collectGarbageNowAndThen = collectingNowAndThen(
  (globalThis as { gc?: () => void }).gc,
  collectionIntervalMs,
  Date.now,
);
