/** Which data arrived, one bit per sequence number; grown by doubling as larger numbers come. */
export class ArrivalBitset {
  private bits: Uint8Array = new Uint8Array(1024);

  /** Marks datum `sequence` (a non-negative integer) as arrived; whether it had arrived before. */
  markArrived(sequence: number): boolean {
    const byte = Math.floor(sequence / 8);
    if (byte >= this.bits.length) {
      let length = this.bits.length * 2;
      while (length <= byte) length *= 2;
      const grown = new Uint8Array(length);
      grown.set(this.bits);
      this.bits = grown;
    }
    const mask = 1 << (sequence % 8);
    const before = (this.bits[byte]! & mask) !== 0;
    this.bits[byte]! |= mask;
    return before;
  }
}
