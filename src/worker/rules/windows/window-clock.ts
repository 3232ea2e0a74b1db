/*
 * Event-time windows of a rule. A window ends at every multiple of the step since the epoch and
 * spans the `window` before its end; it closes (is evaluated) once the clock passes its end plus
 * the allowed lateness. Data are kept in panes of gcd(step, window): every window is a whole number
 * of panes, so a datum is stored once however many sliding windows hold it.
 */

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export interface WindowTiming {
  timeStep: number;
  timeWindow: number;
  allowedLatenessSeconds: number;
}

export class WindowClock {
  readonly stepMs: number;
  readonly windowMs: number;
  readonly paneMs: number;
  readonly latenessMs: number;

  constructor(timing: WindowTiming) {
    this.stepMs = timing.timeStep * 1000;
    this.windowMs = timing.timeWindow * 1000;
    this.paneMs = gcd(timing.timeStep, timing.timeWindow) * 1000;
    this.latenessMs = timing.allowedLatenessSeconds * 1000;
  }

  paneOf(timestamp: number): number {
    return Math.floor(timestamp / this.paneMs) * this.paneMs;
  }

  /** The end of the first window that holds the pane. */
  firstEndHolding(paneStart: number): number {
    return (Math.floor(paneStart / this.stepMs) + 1) * this.stepMs;
  }

  /** The end of the last window that holds the pane. */
  lastEndHolding(paneStart: number): number {
    return Math.floor((paneStart + this.windowMs) / this.stepMs) * this.stepMs;
  }

  closesAt(windowEnd: number): number {
    return windowEnd + this.latenessMs;
  }

  /** The end of the last window that has closed by `now`. */
  lastClosedEnd(now: number): number {
    return Math.floor((now - this.latenessMs) / this.stepMs) * this.stepMs;
  }

  /** A datum is late when every window that holds it has closed. */
  isLate(timestamp: number, now: number): boolean {
    return this.closesAt(this.lastEndHolding(this.paneOf(timestamp))) <= now;
  }

  /** The ends of the windows holding any of the panes, after `closedThrough`, that have closed by `now`, in order. */
  closedEnds(paneStarts: readonly number[], closedThrough: number, now: number): number[] {
    const ends = new Set<number>();
    for (const pane of paneStarts) {
      const last = this.lastEndHolding(pane);
      for (
        let end = Math.max(this.firstEndHolding(pane), closedThrough + this.stepMs);
        end <= last;
        end += this.stepMs
      ) {
        if (this.closesAt(end) > now) break;
        ends.add(end);
      }
    }
    return [...ends].sort((a, b) => a - b);
  }

  /** When the earliest window after `closedThrough` that holds one of the panes closes; null if none does. */
  nextClose(paneStarts: readonly number[], closedThrough: number): number | null {
    let earliest: number | null = null;
    for (const pane of paneStarts) {
      const end = Math.max(this.firstEndHolding(pane), closedThrough + this.stepMs);
      if (end > this.lastEndHolding(pane)) continue;
      const closes = this.closesAt(end);
      if (earliest === null || closes < earliest) earliest = closes;
    }
    return earliest;
  }
}
