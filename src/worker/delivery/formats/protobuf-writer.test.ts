import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProtobufReader, wireType } from "../../intake/common/protobuf-reader";
import { ProtobufWriter as IndependentWriter } from "../../intake/common/testing/protobuf-writer";
import { varint } from "../../intake/otlp/testing/otlp-protobuf-encoder";
import {
  fixed64FieldLength,
  int64FieldLength,
  lengthDelimitedLength,
  ProtobufWriter,
  varintLength,
} from "./protobuf-writer";

describe("varintLength", () => {
  it("is the length of the varint the test encoder writes, up to 2^53", () => {
    for (const value of [0, 1, 127, 128, 16_383, 16_384, 2 ** 32, 2 ** 53]) {
      expect(varintLength(value), String(value)).toBe(varint(BigInt(value)).length);
    }
    fc.assert(
      fc.property(fc.maxSafeNat(), (value) => {
        expect(varintLength(value)).toBe(varint(BigInt(value)).length);
      }),
    );
  });

  it("is 10 bytes for a negative value, its 64-bit two's complement", () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }), (value) => {
        expect(varintLength(value)).toBe(10);
      }),
    );
  });
});

describe("int64FieldLength", () => {
  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53)])(
    "refuses %s, which is no safe integer",
    (value) => {
      expect(() => int64FieldLength(1, value)).toThrow(RangeError);
    },
  );
});

describe("ProtobufWriter", () => {
  it("writes fields the reader reads back, in a message of the measured length", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.bigInt(0n, 2n ** 64n - 1n),
        fc.double(),
        fc.integer({ min: 1, max: 5_000 }),
        (bytes, fixed, double, field) => {
          const embeddedLength = fixed64FieldLength(field);
          const length =
            lengthDelimitedLength(field, bytes.length) +
            fixed64FieldLength(field) +
            lengthDelimitedLength(field, embeddedLength);
          const writer = new ProtobufWriter(length);
          writer.bytes(field, bytes);
          writer.fixed64(field, fixed);
          writer.lengthDelimited(field, embeddedLength);
          writer.double(field, double);
          const message = writer.finish();
          expect(message.length).toBe(length);

          const reader = new ProtobufReader(message);
          expect([reader.field(), reader.type]).toEqual([field, wireType.lengthDelimited]);
          expect(reader.bytesField()).toEqual(bytes);
          expect([reader.field(), reader.type]).toEqual([field, wireType.fixed64]);
          const [low, high] = reader.fixed64Halves();
          expect((BigInt(high!) << 32n) | BigInt(low!)).toBe(fixed);
          expect([reader.field(), reader.type]).toEqual([field, wireType.lengthDelimited]);
          const end = reader.enter();
          expect([reader.field(), reader.type]).toEqual([field, wireType.fixed64]);
          expect(reader.double()).toBe(double);
          reader.leave(end);
          expect(reader.hasMore()).toBe(false);
        },
      ),
    );
  });

  it("writes int64 fields as the independent test writer does, and the reader reads them back", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 1, max: 5_000 }), (value, field) => {
        const writer = new ProtobufWriter(int64FieldLength(field, value));
        writer.int64(field, value);
        const message = writer.finish();
        expect(message).toEqual(new IndependentWriter().varintField(field, value).finish());
        const reader = new ProtobufReader(message);
        expect([reader.field(), reader.type]).toEqual([field, wireType.varint]);
        expect(reader.int64()).toBe(value);
      }),
    );
  });

  it("writes a negative int64 as 10 bytes, its 64-bit two's complement", () => {
    const writer = new ProtobufWriter(int64FieldLength(2, -2));
    writer.int64(2, -2);
    expect([...writer.finish()]).toEqual([0x10, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
  });

  it("writes every NaN as the one quiet NaN, whatever its other bits", () => {
    const bits = new DataView(new ArrayBuffer(8));
    bits.setBigUint64(0, 0x7ff0000000000002n);
    const writer = new ProtobufWriter(2 * fixed64FieldLength(1));
    writer.double(1, Number.NaN);
    writer.double(1, bits.getFloat64(0));
    const message = new DataView(writer.finish().buffer);
    expect([message.getBigUint64(1, true), message.getBigUint64(10, true)]).toEqual([
      0x7ff8000000000000n,
      0x7ff8000000000000n,
    ]);
  });

  it("copies bytes already encoded as they are", () => {
    const writer = new ProtobufWriter(3);
    writer.raw(Uint8Array.of(8, 150, 1));
    expect(writer.finish()).toEqual(Uint8Array.of(8, 150, 1));
  });

  it("refuses to finish a message shorter than measured, and to write past its length", () => {
    expect(() => new ProtobufWriter(2).finish()).toThrow("measured at 2 bytes was written in 0");
    expect(() => new ProtobufWriter(8).double(1, 1)).toThrow(RangeError);
  });
});
