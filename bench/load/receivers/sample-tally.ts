import { ArrivalBitset } from "./arrival-bitset.ts";

/**
 * What one receiver got over a round, sample by sample: values that are the samples' sequence
 * numbers (non-negative integers), each counted once however often it came, and when the last new
 * one came.
 */
export class SampleTally {
  /** Samples received, each counted once. */
  distinct = 0;
  duplicates = 0;
  /** Payloads that could not be read, and values that are no sequence number. */
  unreadable = 0;
  /** Date.now() of the last payload that brought a new sample; 0 before any. */
  lastArrival = 0;
  private readonly seen = new ArrivalBitset();

  /** The values of one payload that arrived at `at`; undefined for a payload that could not be read. */
  record(values: readonly number[] | undefined, at = Date.now()): void {
    if (values === undefined) {
      this.unreadable += 1;
      return;
    }
    let fresh = 0;
    for (const value of values) {
      if (!Number.isSafeInteger(value) || value < 0) this.unreadable += 1;
      else if (this.seen.markArrived(value)) this.duplicates += 1;
      else fresh += 1;
    }
    if (fresh === 0) return;
    this.distinct += fresh;
    this.lastArrival = at;
  }
}
