/** Wide enough to keep a long soak's record small, narrow enough that a window's edges cost little. */
const bucketWidthMs = 10;

/**
 * Arrival times (Date.now(), whole milliseconds) as counts per bucket of `width` ms aligned on
 * multiples of it: the record's size follows the time span the arrivals cover, not their number.
 */
export class ArrivalCounts {
  private counts: Uint32Array = new Uint32Array(0);
  /** The bucket counts[0] stands for, as a multiple of the width. */
  private first = 0;

  constructor(private readonly width = bucketWidthMs) {}

  record(arrival: number): void {
    const bucket = Math.floor(arrival / this.width);
    if (this.counts.length === 0) this.first = bucket;
    if (bucket < this.first) this.reach(bucket, this.first + this.counts.length - 1);
    else if (bucket >= this.first + this.counts.length) this.reach(this.first, bucket);
    this.counts[bucket - this.first]! += 1;
  }

  /** Grows the counts by doubling until they span the buckets from `low` to `high`, keeping those counted. */
  private reach(low: number, high: number): void {
    let length = Math.max(this.counts.length, 1);
    while (length < high - low + 1) length *= 2;
    const grown = new Uint32Array(length);
    // Room to spare on the side growth came from, so that growing that way again is rare.
    const first = low < this.first ? high - length + 1 : low;
    grown.set(this.counts, this.first - first);
    this.counts = grown;
    this.first = first;
  }

  /**
   * Arrivals at or after `from` and before `to`: the whole buckets within, and of a bucket a window
   * edge cuts, the share of its milliseconds inside (exact when arrivals spread evenly over it, and
   * for a width of 1 ms).
   */
  countWithin(from: number, to: number): number {
    // A whole-millisecond arrival t is within when ⌈from⌉ ≤ t < ⌈to⌉.
    const start = Math.ceil(from);
    const end = Math.ceil(to);
    let count = 0;
    for (let index = 0; index < this.counts.length; index++) {
      const bucketStart = (this.first + index) * this.width;
      const inside = Math.min(end, bucketStart + this.width) - Math.max(start, bucketStart);
      if (inside > 0) count += (this.counts[index]! * inside) / this.width;
    }
    return count;
  }
}
