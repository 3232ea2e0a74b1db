import { grownToHold } from "./grown-array.ts";

/** Below this, latencies are counted per millisecond: exact for the whole-millisecond latencies the bench measures. */
const fineLimitMs = 10 * 60 * 1000;
/** Above it, per second: such a latency is a backlog's, where a second is fine enough. */
const coarseWidthMs = 1000;

/**
 * Latencies in milliseconds as counts per bucket, for percentiles: a millisecond wide below
 * `fineLimitMs` (10 minutes unless told), a second above. Its size follows the largest latency,
 * not the number recorded.
 */
export class LatencyHistogram {
  private fine: Uint32Array = new Uint32Array(1024);
  /** Latencies per second above the fine limit, by the second's start: few, and a map keeps a wild one small. */
  private readonly coarse = new Map<number, number>();
  private recorded = 0;

  constructor(private readonly fineLimit = fineLimitMs) {}

  /** A histogram of every latency in `histograms` (all of the same fine limit). */
  static combined(histograms: readonly LatencyHistogram[]): LatencyHistogram {
    const combined = new LatencyHistogram(histograms[0]?.fineLimit);
    for (const histogram of histograms) combined.add(histogram);
    return combined;
  }

  /** Latencies recorded. */
  get count(): number {
    return this.recorded;
  }

  record(milliseconds: number): void {
    // Date.now() may step back between post and arrival; such a latency counts as none.
    const latency = Math.max(0, Math.floor(milliseconds));
    if (latency < this.fineLimit) {
      this.fine = grownToHold(this.fine, latency + 1, this.fineLimit);
      this.fine[latency]! += 1;
    } else {
      const second = this.fineLimit + Math.floor((latency - this.fineLimit) / coarseWidthMs) * coarseWidthMs;
      this.coarse.set(second, (this.coarse.get(second) ?? 0) + 1);
    }
    this.recorded += 1;
  }

  private add(other: LatencyHistogram): void {
    if (other.fineLimit !== this.fineLimit) throw new Error("histograms of different fine limits do not add up");
    this.fine = grownToHold(this.fine, other.fine.length, this.fineLimit);
    other.fine.forEach((count, bucket) => {
      this.fine[bucket]! += count;
    });
    for (const [second, count] of other.coarse) this.coarse.set(second, (this.coarse.get(second) ?? 0) + count);
    this.recorded += other.recorded;
  }

  /**
   * The latency at `fraction` of the sorted latencies (the element at ⌊count × fraction⌋, the last
   * for 1): exact below the fine limit, the start of its second above; NaN when none were recorded.
   */
  percentile(fraction: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.min(this.count - 1, Math.floor(this.count * fraction));
    let below = 0;
    for (let bucket = 0; bucket < this.fine.length; bucket++) {
      below += this.fine[bucket]!;
      if (below > rank) return bucket;
    }
    for (const second of [...this.coarse.keys()].sort((a, b) => a - b)) {
      below += this.coarse.get(second)!;
      if (below > rank) return second;
    }
    throw new Error("the histogram's buckets hold fewer latencies than its count");
  }
}
