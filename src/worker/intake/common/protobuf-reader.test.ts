import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nanosToMillis, ProtobufError, ProtobufReader, wireType } from "./protobuf-reader";
import { ProtobufWriter } from "./testing/protobuf-writer";

const twoTo64 = 1n << 64n;
const reader = (bytes: number[] | Uint8Array) => new ProtobufReader(Uint8Array.from(bytes));
const varintBytes = (value: bigint | number) => new ProtobufWriter().varint(value).finish();
const halvesOf = (value: bigint) => [Number(value & 0xffff_ffffn), Number(value >> 32n)];
const fieldOf = (read: ProtobufReader) => ({ field: read.field(), type: read.type });

/** The smallest values needing 1 to 10 bytes, the largest of each length, and 2^64 - 1. */
const varintBounds = Array.from({ length: 10 }, (_, index) => [
  index === 0 ? 0n : 1n << BigInt(7 * index),
  index === 9 ? twoTo64 - 1n : (1n << BigInt(7 * (index + 1))) - 1n,
]).flat();

function expectProtobufError(read: () => unknown, message?: RegExp) {
  expect(read).toThrow(ProtobufError);
  if (message) expect(read).toThrow(message);
}

describe("varint", () => {
  it("reads the encoding's examples", () => {
    expect(reader([0x96, 0x01]).varint()).toBe(150);
    expect(reader([0x00]).varint()).toBe(0);
    expect(reader([0xff, 0xff, 0xff, 0xff, 0x0f]).varint()).toBe(2 ** 32 - 1);
    expect(reader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]).varint()).toBe(2 ** 64);
  });

  it.each(varintBounds)("reads %s in as many bytes as it takes, as the nearest double", (value) => {
    const bytes = varintBytes(value);
    const read = reader(bytes);
    expect(read.varint()).toBe(Number(value));
    expect(read.offset).toBe(bytes.length);
    expect(read.hasMore()).toBe(false);
  });

  it("reads any 64-bit value as the nearest double, exactly below 2^53", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: twoTo64 - 1n }), (value) => {
        expect(reader(varintBytes(value)).varint()).toBe(Number(value));
      }),
    );
  });

  it("accepts encodings longer than needed, as protobuf does", () => {
    expect(reader([0x81, 0x80, 0x80, 0x00]).varint()).toBe(1);
  });

  it("refuses a varint of more than 10 bytes", () => {
    expectProtobufError(() => reader([...Array(10).fill(0x80), 0x00]).varint(), /longer than 10 bytes at byte 0/);
  });

  it.each([[[]], [[0x80]], [[0xff, 0xff, 0xff]], [Array(9).fill(0x80)]])(
    "refuses %j, which ends mid-varint",
    (bytes) => {
      expectProtobufError(() => reader(bytes).varint(), /varint runs past the end/);
    },
  );

  it("reads bools", () => {
    expect(reader([0x00]).bool()).toBe(false);
    expect(reader([0x01]).bool()).toBe(true);
    expect(reader([0x80, 0x01]).bool()).toBe(true);
  });
});

describe("int64", () => {
  it.each([
    [0n, 1],
    [1n, 1],
    [-1n, 10],
    [-2n, 10],
    [(1n << 63n) - 1n, 9],
    [-(1n << 63n), 10],
    [-(1n << 32n), 10],
    [-(1n << 32n) - 1n, 10],
    [-(1n << 32n) + 1n, 10],
    [-1_700_000_000_000n, 10],
  ])("reads %s (%i bytes) as the nearest double", (value, size) => {
    const bytes = varintBytes(value);
    expect(bytes.length).toBe(size);
    expect(reader(bytes).int64()).toBe(Number(value));
  });

  it("reads any int64 as the nearest double", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), (value) => {
        expect(reader(varintBytes(value)).int64()).toBe(Number(value));
      }),
    );
  });
});

describe("fixed-width values", () => {
  it("reads fixed64s as halves, unsigned and signed doubles", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: twoTo64 - 1n }), (value) => {
        const bytes = new ProtobufWriter().fixed64(value).finish();
        expect([...reader(bytes).fixed64Halves()]).toEqual(halvesOf(value));
        expect(reader(bytes).fixed64()).toBe(Number(value));
        expect(reader(bytes).sfixed64()).toBe(Number(BigInt.asIntN(64, value)));
      }),
    );
  });

  it("reads the halves little-endian", () => {
    expect([...reader([1, 2, 3, 4, 5, 6, 7, 8]).fixed64Halves()]).toEqual([0x04030201, 0x08070605]);
    expect(reader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).sfixed64()).toBe(-1);
  });

  it("reads doubles, -0, infinities and NaN included", () => {
    fc.assert(
      fc.property(fc.double(), (value) => {
        expect(Object.is(reader(new ProtobufWriter().double(value).finish()).double(), value)).toBe(true);
      }),
    );
  });

  it.each([
    ["double", (read: ProtobufReader): unknown => read.double()],
    ["fixed64", (read: ProtobufReader): unknown => read.fixed64()],
    ["sfixed64", (read: ProtobufReader): unknown => read.sfixed64()],
    ["fixed64Halves", (read: ProtobufReader): unknown => read.fixed64Halves()],
  ])("refuses a %s with fewer than 8 bytes left", (_, read) => {
    for (let size = 0; size < 8; size++) {
      expectProtobufError(() => read(reader(Array(size).fill(0))), /8-byte field runs past the end/);
    }
  });

  it("does not read past the end it was given, even where the bytes go on", () => {
    const bytes = Uint8Array.from([9, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expectProtobufError(() => new ProtobufReader(bytes, 1, 8).fixed64());
    expect([...new ProtobufReader(bytes, 1, 9).fixed64Halves()]).toEqual([0x04030201, 0x08070605]);
  });
});

describe("nanosToMillis", () => {
  const exactly = (nanos: bigint) => Number(nanos / 1_000_000n);

  it("rounds any fixed64 of nanoseconds down to whole milliseconds exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: twoTo64 - 1n }), (nanos) => {
        const [low, high] = halvesOf(nanos);
        expect(nanosToMillis(low!, high!)).toBe(exactly(nanos));
      }),
    );
  });

  it("is exact next to every millisecond, where rounding would show", () => {
    const nearMillisecond = fc
      .tuple(fc.bigInt({ min: 0n, max: twoTo64 / 1_000_000n }), fc.integer({ min: -1, max: 1 }))
      .map(([millis, step]) => millis * 1_000_000n + BigInt(step))
      .filter((nanos) => nanos >= 0n && nanos < twoTo64);
    fc.assert(
      fc.property(nearMillisecond, (nanos) => {
        const [low, high] = halvesOf(nanos);
        expect(nanosToMillis(low!, high!)).toBe(exactly(nanos));
      }),
    );
  });

  it.each([0n, 999_999n, 1_000_000n, 1_700_000_000_123_456_789n, twoTo64 - 1n])("converts %s", (nanos) => {
    const [low, high] = halvesOf(nanos);
    expect(nanosToMillis(low!, high!)).toBe(exactly(nanos));
  });
});

describe("length-delimited fields", () => {
  it("reads strings, multi-byte characters included", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }).filter((text) => text.isWellFormed()),
        (text) => {
          const read = reader(new ProtobufWriter().delimited(new TextEncoder().encode(text)).fixed32(7).finish());
          expect(read.string()).toBe(text);
          expect(read.hasMore()).toBe(true);
        },
      ),
    );
  });

  it("keeps a leading byte-order mark, which is part of the string", () => {
    const text = "\u{feff}value";
    expect(reader(new ProtobufWriter().delimited(new TextEncoder().encode(text)).finish()).string()).toBe(text);
  });

  it("reads the empty string", () => {
    expect(reader([0]).string()).toBe("");
  });

  it.each([
    ["a byte that never starts UTF-8", [0xff]],
    ["a lone continuation byte", [0x61, 0x80]],
    ["an overlong encoding", [0xc0, 0x80]],
    ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ["a character cut short", [0xe2, 0x82]],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
  ])("refuses %s", (_, bytes) => {
    expectProtobufError(() => reader([bytes.length, ...bytes]).string(), /not valid UTF-8 at byte 1/);
  });

  it("gives bytes as a view of the message", () => {
    const bytes = Uint8Array.from([0xaa, 3, 1, 2, 3, 0xbb]);
    const read = new ProtobufReader(bytes, 1);
    const field = read.bytesField();
    expect([...field]).toEqual([1, 2, 3]);
    expect(field.buffer).toBe(bytes.buffer);
    expect(read.offset).toBe(5);
  });

  it("reads an embedded message within its own bounds, then goes on after it", () => {
    const inner = new ProtobufWriter().varintField(1, 5).finish();
    const read = reader(new ProtobufWriter().delimited(inner).varintField(2, 6).finish());
    const outerEnd = read.enter();
    expect(outerEnd).toBe(5);
    expect(read.limit).toBe(3);
    expect(fieldOf(read)).toEqual({ field: 1, type: wireType.varint });
    expect(read.varint()).toBe(5);
    expect(read.hasMore()).toBe(false);
    expectProtobufError(() => read.field());
    read.leave(outerEnd);
    expect(fieldOf(read)).toEqual({ field: 2, type: wireType.varint });
    expect(read.varint()).toBe(6);
    expect(read.hasMore()).toBe(false);
  });

  it("leaves an embedded message past what of it was not read", () => {
    const inner = new ProtobufWriter().varintField(1, 5).varintField(2, 7).finish();
    const read = reader(new ProtobufWriter().delimited(inner).varintField(3, 6).finish());
    const outerEnd = read.enter();
    read.field();
    read.leave(outerEnd);
    expect(fieldOf(read)).toEqual({ field: 3, type: wireType.varint });
  });

  it("reads a message again, and goes on after an embedded message whose reading failed", () => {
    const deepest = new ProtobufWriter().varintField(1, 1).finish();
    const inner = new ProtobufWriter().delimited(deepest).finish();
    const read = reader(new ProtobufWriter().delimited(inner).varintField(4, 9).finish());
    const outerEnd = read.enter();
    const start = read.offset;
    const end = read.limit;
    read.enter();
    read.field();
    read.restore(start, end);
    expect(read.offset).toBe(start);
    expect(read.limit).toBe(end);
    read.enter();
    read.restore(end, end);
    read.leave(outerEnd);
    expect(fieldOf(read)).toEqual({ field: 4, type: wireType.varint });
  });

  it("refuses an embedded message whose content runs past its own length", () => {
    // The inner message says 2 bytes but holds a varint of 3; the outer bytes that follow must not be read.
    const read = reader([2, 0x08, 0x80, 0x01]);
    read.enter();
    read.field();
    expectProtobufError(() => read.varint(), /varint runs past the end/);
  });

  const delimitedReads = [
    ["bytesField", (read: ProtobufReader) => read.bytesField()],
    ["string", (read: ProtobufReader) => read.string()],
    ["enter", (read: ProtobufReader) => read.enter()],
    ["skip", (read: ProtobufReader) => read.skip(wireType.lengthDelimited)],
    ["packed repeated", (read: ProtobufReader) => read.repeated(wireType.lengthDelimited, wireType.varint, () => {})],
  ] as const;

  it.each(delimitedReads)("%s refuses a length past the end", (_, read) => {
    expectProtobufError(() => read(reader([3, 0x61, 0x62])), /field of 3 bytes runs past the end at byte 0/);
    expectProtobufError(() => read(reader([1])), /field of 1 bytes runs past the end/);
    expectProtobufError(() => read(reader(varintBytes(twoTo64 - 1n))), /runs past the end/);
    expectProtobufError(() => read(reader([0x80])), /varint runs past the end/);
    expectProtobufError(() => read(reader([])), /varint runs past the end/);
  });

  it.each(delimitedReads)("%s refuses a length past the end of an embedded message", (_, read) => {
    // The embedded message is 2 bytes, its field claims 2 of its own; the outer bytes after it do not count.
    const outer = reader([2, 2, 0x61, 0x62, 0x63]);
    outer.enter();
    expectProtobufError(() => read(outer));
  });

  it("reads a length that reaches exactly the end", () => {
    const read = reader([2, 0x61, 0x62]);
    expect(read.string()).toBe("ab");
    expect(read.hasMore()).toBe(false);
  });
});

describe("repeated", () => {
  const collectVarints = (bytes: Uint8Array) => {
    const read = reader(bytes);
    const values: number[] = [];
    read.field();
    read.repeated(read.type, wireType.varint, (element) => values.push(element.varint()));
    return { values, read };
  };

  it("reads every element of a packed field", () => {
    const payload = new ProtobufWriter().varint(1).varint(300).varint(-1).finish();
    const { values, read } = collectVarints(new ProtobufWriter().bytesField(4, payload).varintField(5, 9).finish());
    expect(values).toEqual([1, 300, 2 ** 64]);
    expect(fieldOf(read)).toEqual({ field: 5, type: wireType.varint });
  });

  it("reads an empty packed field", () => {
    expect(collectVarints(new ProtobufWriter().bytesField(4, new Uint8Array()).finish()).values).toEqual([]);
  });

  it("reads an unpacked element", () => {
    expect(collectVarints(new ProtobufWriter().varintField(4, 42).finish()).values).toEqual([42]);
  });

  it("reads packed doubles", () => {
    const payload = new ProtobufWriter().double(1.5).double(-Infinity).finish();
    const read = reader(new ProtobufWriter().delimited(payload).finish());
    const values: number[] = [];
    read.repeated(wireType.lengthDelimited, wireType.fixed64, (element) => values.push(element.double()));
    expect(values).toEqual([1.5, -Infinity]);
  });

  it("reads a repeated length-delimited field one element at a time", () => {
    const read = reader(new ProtobufWriter().delimited(new TextEncoder().encode("x")).finish());
    const values: string[] = [];
    read.repeated(wireType.lengthDelimited, wireType.lengthDelimited, (element) => values.push(element.string()));
    expect(values).toEqual(["x"]);
  });

  it("refuses an element of another wire type", () => {
    expectProtobufError(
      () => reader([0, 0, 0, 0]).repeated(wireType.fixed32, wireType.varint, () => {}),
      /wire type 5 where the schema has 0/,
    );
    expectProtobufError(() => reader([0]).repeated(wireType.varint, wireType.lengthDelimited, () => {}));
  });

  it("refuses a packed field whose last element is cut short, though the message goes on", () => {
    const read = reader([3, 0x01, 0x02, 0x80, 0x01, 0x08, 0x01]);
    expectProtobufError(() => read.repeated(wireType.lengthDelimited, wireType.varint, (element) => element.varint()));
  });

  it("refuses packed doubles that do not fill their length", () => {
    const read = reader([9, ...Array(9).fill(0)]);
    expectProtobufError(() => read.repeated(wireType.lengthDelimited, wireType.fixed64, (element) => element.double()));
  });
});

describe("tags, wire types and skipping", () => {
  it("reads field numbers and wire types", () => {
    expect(fieldOf(reader([0x08]))).toEqual({ field: 1, type: 0 });
    expect(fieldOf(reader([0x12]))).toEqual({ field: 2, type: 2 });
    expect(fieldOf(reader(new ProtobufWriter().tag(536_870_911, 5).finish()))).toEqual({ field: 536_870_911, type: 5 });
  });

  it.each([
    ["0", new ProtobufWriter().tag(0, 0).finish()],
    ["2^29", new ProtobufWriter().tag(536_870_912, 0).finish()],
    ["from a 10-byte tag", varintBytes(twoTo64 - 1n)],
  ])("refuses the field number %s", (_, bytes) => {
    expectProtobufError(() => reader(bytes).field(), /field number .* is not valid at byte 0/);
  });

  it("expects the schema's wire type", () => {
    expect(() => reader([]).expect(wireType.fixed64, wireType.fixed64)).not.toThrow();
    expectProtobufError(
      () => reader([]).expect(wireType.fixed64, wireType.fixed32),
      /wire type 1 where the schema has 5/,
    );
  });

  it("skips a field of each wire type", () => {
    const bytes = new ProtobufWriter()
      .varintField(1, -1)
      .fixed64Field(2, 7n)
      .stringField(3, "skipped")
      .fixed32Field(4, 9)
      .bytesField(5, new Uint8Array())
      .varintField(15, 77)
      .finish();
    const read = reader(bytes);
    for (let field = 1; field <= 5; field++) {
      expect(read.field()).toBe(field);
      read.skip(read.type);
    }
    expect(fieldOf(read)).toEqual({ field: 15, type: wireType.varint });
    expect(read.varint()).toBe(77);
    expect(read.hasMore()).toBe(false);
  });

  it.each([
    ["varint", wireType.varint, [0xff, 0xff]],
    ["fixed64", wireType.fixed64, [1, 2, 3, 4, 5, 6, 7]],
    ["length-delimited", wireType.lengthDelimited, [5, 1, 2]],
    ["fixed32", wireType.fixed32, [1, 2, 3]],
  ])("refuses to skip a %s field that runs past the end", (_, type, bytes) => {
    expectProtobufError(() => reader(bytes).skip(type), /past the end/);
  });

  it.each([3, 4, 6, 7])("refuses the wire type %i", (type) => {
    expectProtobufError(
      () => reader([0, 0, 0, 0, 0, 0, 0, 0]).skip(type),
      new RegExp(`wire type ${type} is not supported`),
    );
  });

  it("skips through any bytes to their end or a ProtobufError, never further", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat({ max: 8 }), (bytes, margin) => {
        const end = Math.max(0, bytes.length - margin);
        const read = new ProtobufReader(bytes, 0, end);
        try {
          while (read.hasMore()) {
            read.field();
            read.skip(read.type);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ProtobufError);
        }
        expect(read.offset).toBeLessThanOrEqual(end);
      }),
    );
  });

  it("names the error and where it happened", () => {
    const read = reader([0x08, 0x80]);
    read.field();
    try {
      read.varint();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProtobufError);
      expect((error as Error).name).toBe("ProtobufError");
      expect((error as Error).message).toBe("a varint runs past the end at byte 1");
    }
  });
});
