import { grownToHold } from "./grown-array.ts";

/**
 * When each datum was posted, kept per request: every datum of a request shares its time, and the
 * bench numbers data consecutively, so datum n belongs to request ⌊n / dataPerRequest⌋. One number
 * per request instead of one per datum keeps a long soak's record small.
 */
export class PostingTimes {
  private times: Float64Array = new Float64Array(1024);
  private requests = 0;

  constructor(readonly dataPerRequest: number) {}

  /** Data posted so far (requests × dataPerRequest). */
  get data(): number {
    return this.requests * this.dataPerRequest;
  }

  /** Records a request posted at `at` (Date.now()); the sequence number of its first datum. */
  recordRequest(at: number): number {
    this.times = grownToHold(this.times, this.requests + 1);
    this.times[this.requests] = at;
    this.requests += 1;
    return (this.requests - 1) * this.dataPerRequest;
  }

  /** When datum `sequence` was posted; undefined for a number the bench never posted. */
  postedAt(sequence: number): number | undefined {
    if (!Number.isInteger(sequence) || sequence < 0 || sequence >= this.data) return undefined;
    return this.times[Math.floor(sequence / this.dataPerRequest)];
  }
}
