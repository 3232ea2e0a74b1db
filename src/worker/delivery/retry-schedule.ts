/**
 * When to try undelivered data again. Attempt number `step` (0 = the first retry) waits the
 * schedule's step, or its last step once the schedule has run out, so data that arrive while an
 * observer is down still get attempts; data are given up on (dead) only once they have been tried
 * for the whole schedule. Each wait is jittered by up to ±20 % so that observers failing together
 * do not retry in lockstep.
 */
export const jitterShare = 0.2;

/** Milliseconds until the retry after `step` failed retries. */
export function retryDelayMs(
  schedule: readonly number[],
  step: number,
  options: { retryAfterSeconds?: number; random?: () => number } = {},
): number {
  const { retryAfterSeconds, random = Math.random } = options;
  const seconds = schedule[Math.min(step, schedule.length - 1)]!;
  const jittered = seconds * (1 + jitterShare * (2 * random() - 1));
  // An observer that said how long to wait is not asked sooner, but never later than the longest step.
  const asked = retryAfterSeconds === undefined ? 0 : Math.min(retryAfterSeconds, Math.max(...schedule));
  return Math.round(Math.max(jittered, asked) * 1_000);
}

/** How long data are tried before they become dead: the whole schedule. */
export function scheduleSpanMs(schedule: readonly number[]): number {
  return schedule.reduce((total, seconds) => total + seconds, 0) * 1_000;
}

/** The IMF-fixdate form of an HTTP date (RFC 9110), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. */
const httpDate =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The seconds a `Retry-After` header asks for (RFC 9110: delay-seconds or an HTTP date), or
 * undefined when it is missing or unreadable.
 */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (!httpDate.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1_000);
}
