import { ArrivalBitset } from "./arrival-bitset.ts";
import { scanTowerJson } from "./tower-json-scan.ts";

/** A payload that brought data not seen before: when it came and how many. */
interface Arrival {
  at: number;
  data: number;
}

/** Data that arrived over a stretch of a case, and how long that stretch lasted. */
export interface ArrivalSpan {
  data: number;
  seconds: number;
}

/**
 * What one observer received, datum by datum: TOWER/JSON payloads whose values are the data's
 * sequence numbers (non-negative integers), each counted once however often it came, whatever
 * its metric. Keeps when new data arrived, payload by payload, for the rate they came at.
 */
export class DatumTally {
  /** Data received, each counted once. */
  distinct = 0;
  duplicates = 0;
  /** Payloads not in the compact TOWER/JSON shape, and elements whose value is no sequence number. */
  unreadable = 0;
  private readonly seen = new ArrivalBitset();
  private readonly arrivals: Arrival[] = [];

  /** Date.now() of the last payload that brought new data; 0 before any. */
  get lastArrival(): number {
    return this.arrivals.at(-1)?.at ?? 0;
  }

  record(payload: string, at = Date.now()): void {
    const elements = scanTowerJson(payload);
    if (elements === undefined) {
      this.unreadable += 1;
      return;
    }
    let fresh = 0;
    for (const { value } of elements) {
      if (!Number.isSafeInteger(value) || value < 0) this.unreadable += 1;
      else if (this.seen.markArrived(value)) this.duplicates += 1;
      else fresh += 1;
    }
    if (fresh === 0) return;
    this.distinct += fresh;
    this.arrivals.push({ at, data: fresh });
  }

  /**
   * The stretch between the arrival that brought the received data past the share `from` and the
   * one that brought them past `to`, and the data that came in it: the rate in steady state, without
   * the wait for the first batch nor the last data's tail. Zero seconds when one payload covers both.
   */
  steadySpan(from = 0.1, to = 0.9): ArrivalSpan {
    let received = 0;
    let start: { at: number; received: number } | undefined;
    for (const { at, data } of this.arrivals) {
      received += data;
      if (start === undefined && received >= from * this.distinct) start = { at, received };
      if (start !== undefined && received >= to * this.distinct) {
        return { data: received - start.received, seconds: (at - start.at) / 1000 };
      }
    }
    return { data: 0, seconds: 0 };
  }
}
