/**
 * A protobuf wire-format writer for tests and the bench: it builds the agents' messages
 * independently of the reader under test, with 64-bit values as bigints so that every bit is the
 * test's choice (negative int64s, NaN payloads, out-of-range lengths).
 */
export class ProtobufWriter {
  private buffer = new Uint8Array(256);
  private length = 0;

  /** A varint; a negative value is written as its 64-bit two's complement, as int64 fields are. */
  varint(value: bigint | number): this {
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest >= 0x80n) {
      this.byte(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    return this.byte(Number(rest));
  }

  tag(field: number, type: number): this {
    return this.varint(BigInt(field) * 8n + BigInt(type));
  }

  /** Eight bytes, little-endian. */
  fixed64(bits: bigint): this {
    let rest = BigInt.asUintN(64, bits);
    for (let index = 0; index < 8; index++) {
      this.byte(Number(rest & 0xffn));
      rest >>= 8n;
    }
    return this;
  }

  /** Four bytes, little-endian. */
  fixed32(bits: number): this {
    for (let index = 0; index < 4; index++) this.byte((bits >>> (8 * index)) & 0xff);
    return this;
  }

  double(value: number): this {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value, true);
    return this.raw(new Uint8Array(view.buffer));
  }

  /** A length prefix and the bytes. */
  delimited(payload: Uint8Array): this {
    return this.varint(payload.length).raw(payload);
  }

  /** Bytes as they are, without any prefix. */
  raw(payload: Uint8Array): this {
    this.reserve(payload.length);
    this.buffer.set(payload, this.length);
    this.length += payload.length;
    return this;
  }

  varintField(field: number, value: bigint | number): this {
    return this.tag(field, 0).varint(value);
  }

  fixed64Field(field: number, bits: bigint): this {
    return this.tag(field, 1).fixed64(bits);
  }

  doubleField(field: number, value: number): this {
    return this.tag(field, 1).double(value);
  }

  bytesField(field: number, payload: Uint8Array): this {
    return this.tag(field, 2).delimited(payload);
  }

  stringField(field: number, text: string): this {
    return this.bytesField(field, new TextEncoder().encode(text));
  }

  messageField(field: number, message: ProtobufWriter): this {
    return this.bytesField(field, message.finish());
  }

  fixed32Field(field: number, bits: number): this {
    return this.tag(field, 5).fixed32(bits);
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private byte(value: number): this {
    this.reserve(1);
    this.buffer[this.length++] = value;
    return this;
  }

  private reserve(size: number): void {
    if (this.length + size <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + size));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}
