/*
 * A timestamp far from now: before 2000, or more than a day ahead. Such data are accepted as the
 * contract says, but they are most likely stamped in the wrong unit (seconds read as milliseconds
 * land in January 1970, line protocol in milliseconds without `precision=` far ahead) or by a
 * wrong clock, so the intake counts them and the dashboard points them out.
 */

/** 2000-01-01T00:00:00Z in milliseconds since the epoch. */
export const earliestPlausibleMs = Date.UTC(2000, 0, 1);

/** How far ahead of the service's clock a timestamp may be before it counts as far from now. */
export const latestPlausibleAheadMs = 24 * 60 * 60 * 1000;

/** Whether a datum stamped `timestamp` (milliseconds since the epoch) is far from `now`. */
export function isFarFromNow(timestamp: number, now: number): boolean {
  return timestamp < earliestPlausibleMs || timestamp > now + latestPlausibleAheadMs;
}
