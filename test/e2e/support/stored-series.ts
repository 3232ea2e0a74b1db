/** A series as a backend holds it: its labels (`__name__` among them) and its samples. */
export interface StoredSeries {
  labels: Record<string, string>;
  /** [milliseconds since the epoch, value], in timestamp order. */
  samples: [number, number][];
}

/** A label set as one string, the same for the same set whatever the order of its names. */
export const labelsKey = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).sort());

/**
 * Series with the same labels merged (a backend may answer a series in several parts), their
 * samples in timestamp order, sorted by their labels: two readings compare equal exactly when they
 * hold the same data.
 */
export function normalizedSeries(parts: readonly StoredSeries[]): StoredSeries[] {
  const merged = new Map<string, StoredSeries>();
  for (const { labels, samples } of parts) {
    const key = labelsKey(labels);
    const found = merged.get(key);
    if (found) found.samples.push(...samples);
    else merged.set(key, { labels: Object.fromEntries(Object.entries(labels).sort()), samples: [...samples] });
  }
  for (const series of merged.values()) series.samples.sort(([left], [right]) => left - right);
  return [...merged.entries()].sort(([left], [right]) => (left < right ? -1 : 1)).map(([, series]) => series);
}

/**
 * Reads until `complete` accepts the reading or `timeoutMs` passed, and returns the last reading
 * either way, so that the test's expectation shows what arrived when it is not all.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  complete: (reading: T) => boolean,
  timeoutMs: number,
  intervalMs = 300,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reading = await read();
    if (complete(reading) || Date.now() > deadline) return reading;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
