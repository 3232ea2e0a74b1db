import { wireType } from "../../intake/common/protobuf-reader";

/*
 * A writer of the protobuf wire format into one buffer of the message's exact length. An embedded
 * message's length comes before its content, so a message is measured first (`varintLength`,
 * `lengthDelimitedLength`, `fixed64FieldLength`, `int64FieldLength`) and then written front to
 * back, with no copy per level of nesting.
 */

const twoTo32 = 2 ** 32;

/** The high half of the one quiet NaN written for every NaN (its low half is 0). */
const quietNanHigh = 0x7ff80000;

/**
 * How many bytes the varint of `value` takes (an integer from -2^53 to 2^53): a negative value is
 * its 64-bit two's complement, as int64 fields hold it, 10 bytes.
 */
export function varintLength(value: number): number {
  // Tags and most lengths: one byte.
  if (value < 0x80) return value < 0 ? 10 : 1;
  let length = 2;
  for (let limit = 0x4000; value >= limit; limit *= 0x80) length++;
  return length;
}

const tagLength = (field: number) => varintLength(field * 8);

/** How many bytes a length-delimited field (bytes, a string, an embedded message) of `length` content bytes takes. */
export function lengthDelimitedLength(field: number, length: number): number {
  return tagLength(field) + varintLength(length) + length;
}

/** How many bytes a fixed64 or double field takes. */
export const fixed64FieldLength = (field: number) => tagLength(field) + 8;

/** How many bytes an int64 field of `value` takes; a RangeError, before anything is written, for a value that is no safe integer. */
export function int64FieldLength(field: number, value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`an int64 field's value must be a safe integer: ${value}`);
  return tagLength(field) + varintLength(value);
}

export class ProtobufWriter {
  private readonly buffer: Uint8Array<ArrayBuffer>;
  private readonly view: DataView;
  private at = 0;

  /** A writer of a message `length` bytes long, as measured. */
  constructor(length: number) {
    this.buffer = new Uint8Array(length);
    this.view = new DataView(this.buffer.buffer);
  }

  /** An integer from -2^53 to 2^53: a negative one is its 64-bit two's complement. */
  private varint(value: number): void {
    // Tags and most lengths are one byte: kept apart from the loop, this stays small enough to be inlined.
    if (value >= 0 && value < 0x80) this.buffer[this.at++] = value;
    else this.longVarint(value);
  }

  /** A varint of any length, in 32-bit halves. */
  private longVarint(value: number): void {
    const buffer = this.buffer;
    let at = this.at;
    let low = value >>> 0;
    let high = Math.floor(value / twoTo32) >>> 0;
    while (high !== 0 || low >= 0x80) {
      buffer[at++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buffer[at++] = low;
    this.at = at;
  }

  /** The tag and length of a length-delimited field whose `length` bytes of content are written next. */
  lengthDelimited(field: number, length: number): void {
    this.varint(field * 8 + wireType.lengthDelimited);
    this.varint(length);
  }

  /** A length-delimited field of `bytes` (a string's UTF-8, an embedded message already encoded). */
  bytes(field: number, bytes: Uint8Array): void {
    this.lengthDelimited(field, bytes.length);
    this.raw(bytes);
  }

  /** Bytes already in the wire format (fields encoded once, written many times). */
  raw(bytes: Uint8Array): void {
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** A safe integer as an int64 field, measured by `int64FieldLength`. */
  int64(field: number, value: number): void {
    this.varint(field * 8 + wireType.varint);
    // Seldom one byte (a timestamp never is): straight to the loop.
    this.longVarint(value);
  }

  fixed64(field: number, value: bigint): void {
    this.varint(field * 8 + wireType.fixed64);
    this.view.setBigUint64(this.at, value, true);
    this.at += 8;
  }

  /**
   * A double field; every NaN as the one quiet NaN: a NaN's other bits are the engine's choice, and
   * readers may give them a meaning (Prometheus's stale marker is one).
   */
  double(field: number, value: number): void {
    this.varint(field * 8 + wireType.fixed64);
    if (Number.isNaN(value)) {
      this.view.setUint32(this.at, 0, true);
      this.view.setUint32(this.at + 4, quietNanHigh, true);
    } else {
      this.view.setFloat64(this.at, value, true);
    }
    this.at += 8;
  }

  /** The message, once exactly as many bytes were written as it was measured at. */
  finish(): Uint8Array<ArrayBuffer> {
    if (this.at !== this.buffer.length) {
      throw new Error(`a message measured at ${this.buffer.length} bytes was written in ${this.at}`);
    }
    return this.buffer;
  }
}
