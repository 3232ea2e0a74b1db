import { grownToHold } from "./grown-array.ts";

/** Which data arrived, one bit per sequence number; grown by doubling as larger numbers come. */
export class ArrivalBitset {
  private bits: Uint8Array = new Uint8Array(1024);

  /** Marks datum `sequence` (a non-negative integer) as arrived; whether it had arrived before. */
  markArrived(sequence: number): boolean {
    const byte = Math.floor(sequence / 8);
    this.bits = grownToHold(this.bits, byte + 1);
    const mask = 1 << (sequence % 8);
    const before = (this.bits[byte]! & mask) !== 0;
    this.bits[byte]! |= mask;
    return before;
  }
}
