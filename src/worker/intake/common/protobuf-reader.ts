import { internedUtf8 } from "./interned-utf8";

/**
 * A reader of the protobuf wire format (varints, fixed 32/64-bit, length-delimited), for the
 * agents' messages (remote write's WriteRequest, OTLP's ExportMetricsServiceRequest). Hand-written:
 * Workers forbid the `Function()` that reflection-based readers need. Every length and every byte
 * is checked against the end of the message it belongs to, so a truncated or corrupt body is a
 * ProtobufError, never a read past the end or an endless loop.
 */

export class ProtobufError extends Error {
  constructor(message: string, offset: number) {
    super(`${message} at byte ${offset}`);
    this.name = "ProtobufError";
  }
}

/** Wire types (the low three bits of a field's tag). */
export const wireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

// A leading U+FEFF is part of a protobuf string, not a byte-order mark to drop.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const decodeStrictUtf8 = (bytes: Uint8Array) => strictUtf8.decode(bytes);
const twoTo32 = 4_294_967_296;

/** Where a double's eight bytes are put together, one for all readers: no read spans a call. */
const float64Bytes = new DataView(new ArrayBuffer(8));

/**
 * The low and high 32-bit halves of the varint or fixed64 read last, shared the same way: a pair
 * returned would be an allocation per value, and so would a uint32 kept in a reader's field once
 * it is past the small integers.
 */
const halves = new Uint32Array(2);

/**
 * One reader for a whole message and every message embedded in it: it enters an embedded message
 * in place (its end becomes the reader's end until it leaves), so that reading a body allocates
 * nothing per message, however many it holds.
 */
export class ProtobufReader {
  private position: number;
  private end: number;
  private lastType = 0;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
    end = bytes.length,
  ) {
    this.position = start;
    this.end = end;
  }

  /** The bytes the reader reads, all its messages'. */
  get source(): Uint8Array {
    return this.bytes;
  }

  get offset(): number {
    return this.position;
  }

  /** Where the message the reader is in ends. */
  get limit(): number {
    return this.end;
  }

  /** The wire type of the field whose number field() read last. */
  get type(): number {
    return this.lastType;
  }

  hasMore(): boolean {
    return this.position < this.end;
  }

  /** The next field's number, its wire type then in `type`. */
  field(): number {
    const start = this.position;
    const tag = this.varint();
    const field = Math.floor(tag / 8);
    if (field === 0 || field > 536_870_911) throw new ProtobufError(`field number ${field} is not valid`, start);
    this.lastType = tag % 8;
    return field;
  }

  /**
   * Enters the embedded message at the reader (a length-delimited field), which it then reads up to
   * that message's end; the end of the message it was in, for leave().
   */
  enter(): number {
    const start = this.delimited();
    const outerEnd = this.end;
    this.end = this.position;
    this.position = start;
    return outerEnd;
  }

  /** Leaves the embedded message the reader is in, past whatever of it is unread, back in the one ending at `outerEnd`. */
  leave(outerEnd: number): void {
    this.position = this.end;
    this.end = outerEnd;
  }

  /**
   * Puts the reader at `position` of the message ending at `end`, the field read last of wire type
   * `type`, all taken from this reader before: to read a message's fields again, or to go on after
   * an embedded message whose reading failed.
   */
  restore(position: number, end: number, type = this.lastType): void {
    this.position = position;
    this.end = end;
    this.lastType = type;
  }

  /** A varint as a number: exact below 2^53, which every length and count is. */
  varint(): number {
    // Tags and lengths take one to four bytes: read without the halves.
    const bytes = this.bytes;
    const at = this.position;
    let value = 0;
    for (let index = 0; index < 4 && at + index < this.end; index++) {
      const byte = bytes[at + index]!;
      value |= (byte & 0x7f) << (7 * index);
      if (byte < 0x80) {
        this.position = at + index + 1;
        return value;
      }
    }
    this.readVarintHalves();
    return halves[1]! * twoTo32 + halves[0]!;
  }

  /** An int64 varint (two's complement), as the nearest double. */
  int64(): number {
    this.readVarintHalves();
    const low = halves[0]!;
    const high = halves[1]!;
    return high >= 0x80000000 ? -((~high >>> 0) * twoTo32 + ((~low >>> 0) + 1)) : high * twoTo32 + low;
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  double(): number {
    const at = this.reserve(8);
    float64Bytes.setUint32(0, this.uint32At(at), true);
    float64Bytes.setUint32(4, this.uint32At(at + 4), true);
    return float64Bytes.getFloat64(0, true);
  }

  /** A fixed64 as its low and high 32-bit halves, for exact arithmetic: shared, valid until the next read. */
  fixed64Halves(): Readonly<Uint32Array> {
    const at = this.reserve(8);
    halves[0] = this.uint32At(at);
    halves[1] = this.uint32At(at + 4);
    return halves;
  }

  /** A sfixed64 as the nearest double. */
  sfixed64(): number {
    const at = this.reserve(8);
    return (this.uint32At(at + 4) | 0) * twoTo32 + this.uint32At(at);
  }

  /** A fixed64 as the nearest double. */
  fixed64(): number {
    const at = this.reserve(8);
    return this.uint32At(at + 4) * twoTo32 + this.uint32At(at);
  }

  /** The bytes of a length-delimited field, as a view into the message (not a copy). */
  bytesField(): Uint8Array {
    const start = this.delimited();
    return this.bytes.subarray(start, this.position);
  }

  /** A string field, which must be UTF-8. */
  string(): string {
    const start = this.delimited();
    const end = this.position;
    if (start === end) return "";
    try {
      return internedUtf8(this.bytes, start, end, decodeStrictUtf8);
    } catch {
      throw new ProtobufError("a string field is not valid UTF-8", start);
    }
  }

  /** Calls `read` for each element of a packed repeated field of `elementType`, or for a single unpacked one. */
  repeated(type: number, elementType: number, read: (reader: ProtobufReader) => void): void {
    if (type !== wireType.lengthDelimited || elementType === wireType.lengthDelimited) {
      this.expect(type, elementType);
      read(this);
      return;
    }
    const outerEnd = this.enter();
    while (this.hasMore()) read(this);
    this.leave(outerEnd);
  }

  /** Fails unless the field has the wire type its schema gives it. */
  expect(type: number, expected: number): void {
    if (type !== expected) {
      throw new ProtobufError(`wire type ${type} where the schema has ${expected}`, this.position);
    }
  }

  /** Skips a field of `type` the reader does not use. */
  skip(type: number): void {
    switch (type) {
      case wireType.varint:
        this.readVarintHalves();
        return;
      case wireType.fixed64:
        this.reserve(8);
        return;
      case wireType.lengthDelimited:
        this.delimited();
        return;
      case wireType.fixed32:
        this.reserve(4);
        return;
      default:
        // Groups (3, 4) are obsolete, and 6 and 7 are not wire types: no agent message holds them.
        throw new ProtobufError(`wire type ${type} is not supported`, this.position);
    }
  }

  /** Reads a varint into `halves`. */
  private readVarintHalves(): void {
    const start = this.position;
    let low = 0;
    let high = 0;
    for (let index = 0; index < 10; index++) {
      if (this.position >= this.end) throw new ProtobufError("a varint runs past the end", start);
      const byte = this.bytes[this.position++]!;
      const bits = byte & 0x7f;
      if (index < 4) low |= bits << (7 * index);
      else if (index === 4) {
        low |= bits << 28;
        high = bits >>> 4;
      } else high |= bits << (7 * index - 32);
      if (byte < 0x80) {
        halves[0] = low;
        halves[1] = high;
        return;
      }
    }
    throw new ProtobufError("a varint is longer than 10 bytes", start);
  }

  /** The little-endian 32-bit unsigned integer at `at`, which reserve() has checked. */
  private uint32At(at: number): number {
    const bytes = this.bytes;
    return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
  }

  private reserve(size: number): number {
    const at = this.position;
    if (this.end - at < size) throw new ProtobufError(`a ${size}-byte field runs past the end`, at);
    this.position += size;
    return at;
  }

  /** Passes a length-delimited field, the reader then at its end; where its bytes start. */
  private delimited(): number {
    const at = this.position;
    const length = this.varint();
    if (length > this.end - this.position) {
      throw new ProtobufError(`a field of ${length} bytes runs past the end`, at);
    }
    const start = this.position;
    this.position += length;
    return start;
  }
}

/**
 * Nanoseconds given as a fixed64's halves, in whole milliseconds rounded down, computed exactly:
 * 2^32 ns = 4,294 ms + 967,296 ns, and every partial result stays below 2^53.
 */
export function nanosToMillis(low: number, high: number): number {
  return high * 4_294 + Math.floor((high * 967_296 + low) / 1_000_000);
}
