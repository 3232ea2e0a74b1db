import fc from "fast-check";
import { compress as snappyjsCompress, uncompress as snappyjsUncompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { decodeSnappyBlock } from "../../../intake/remote-write/snappy";
import { encodeSnappyBlock } from "./snappy-block-writer";

const text = (value: string) => new TextEncoder().encode(value);

function concat(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** Where two byte arrays first differ (-1 when they are the same): quick where toEqual on megabytes is not. */
function firstDifference(left: Uint8Array, right: Uint8Array): number {
  for (let index = 0; index < Math.max(left.length, right.length); index++)
    if (left[index] !== right[index]) return index;
  return -1;
}

/** Bytes that look random but are the same at every run (a linear congruential generator). */
function scrambled(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/** The most bytes the encoder may write for `length` bytes (its stated bound). */
const bound = (length: number) => 6 + length + Math.ceil(length / 61);

/** Encodes `input`, checks that our reader and snappyjs's both decode it back, and returns the block. */
function roundTrip(input: Uint8Array): Uint8Array {
  const block = encodeSnappyBlock(input);
  expect(block.length).toBeLessThanOrEqual(bound(input.length));
  expect(firstDifference(decodeSnappyBlock(block, input.length), input)).toBe(-1);
  expect(firstDifference(snappyjsUncompress(block), input)).toBe(-1);
  return block;
}

type Element = { literal: number } | { copy: number; offset: number; offsetBytes: 1 | 2 | 4 };

/** The elements of a valid block, for checking which forms the encoder chose. */
function elementsOf(block: Uint8Array): Element[] {
  let at = 0;
  while (block[at]! >= 0x80) at++;
  at++;
  const elements: Element[] = [];
  const littleEndian = (size: number) => {
    let value = 0;
    for (let index = size - 1; index >= 0; index--) value = value * 256 + block[at + index]!;
    at += size;
    return value;
  };
  while (at < block.length) {
    const tag = block[at++]!;
    const kind = tag & 3;
    if (kind === 0) {
      const stored = tag >>> 2;
      const length = stored < 60 ? stored + 1 : littleEndian(stored - 59) + 1;
      elements.push({ literal: length });
      at += length;
    } else if (kind === 1) {
      elements.push({ copy: ((tag >>> 2) & 7) + 4, offset: ((tag >>> 5) << 8) | littleEndian(1), offsetBytes: 1 });
    } else {
      const offsetBytes = kind === 2 ? 2 : 4;
      elements.push({ copy: (tag >>> 2) + 1, offset: littleEndian(offsetBytes), offsetBytes });
    }
  }
  return elements;
}

/** Bytes with repeats near and far, runs of one byte, and random stretches between them. */
const repetitive = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 50 }),
      fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 400 })).map(([byte, count]) => {
        return new Uint8Array(count).fill(byte);
      }),
    ),
    { minLength: 1, maxLength: 20 },
  )
  .chain((parts) =>
    fc
      .array(fc.integer({ min: 0, max: parts.length - 1 }), { maxLength: 80 })
      .map((picks) => concat(...parts, ...picks.map((pick) => parts[pick]!))),
  );

describe("encodeSnappyBlock", () => {
  it("writes the empty input as its length alone", () => {
    expect(roundTrip(new Uint8Array())).toEqual(Uint8Array.of(0));
  });

  it("writes input too short to repeat anything as one literal", () => {
    expect(roundTrip(text("abcd"))).toEqual(Uint8Array.of(4, 3 << 2, ...text("abcd")));
  });

  it("writes a repeat as a copy, with a one-byte offset when it is short and near", () => {
    expect(elementsOf(roundTrip(text("prometheus_remote_write prometheus_remote")))).toEqual([
      { literal: 24 },
      { copy: 17, offset: 24, offsetBytes: 2 },
    ]);
    expect(elementsOf(roundTrip(text("abcdefgh-abcdefgh")))).toEqual([
      { literal: 9 },
      { copy: 8, offset: 9, offsetBytes: 1 },
    ]);
  });

  it("writes a long repeat as copies of at most 64 bytes, none shorter than 4", () => {
    const start = scrambled(3_000);
    const block = roundTrip(concat(start, start.subarray(0, 130)));
    // 130 = 64 + 66: a last copy of 2 would take more bytes than it stands for, so 64 + 60 + 6.
    expect(elementsOf(block)).toEqual([
      { literal: 3_000 },
      { copy: 64, offset: 3_000, offsetBytes: 2 },
      { copy: 60, offset: 3_000, offsetBytes: 2 },
      { copy: 6, offset: 3_000, offsetBytes: 2 },
    ]);
  });

  it("repeats a pattern by a copy that overlaps what it writes", () => {
    const block = roundTrip(text("ab".repeat(500)));
    expect(block.length).toBeLessThan(60);
    expect(elementsOf(block).slice(0, 2)).toEqual([{ literal: 2 }, { copy: 64, offset: 2, offsetBytes: 2 }]);
  });

  it("copies from at most 65,535 bytes back, and finds repeats after a long stretch without any", () => {
    const start = scrambled(70_000);
    const block = roundTrip(concat(start, start.subarray(0, 3_000), start.subarray(60_000, 63_000)));
    const copies = elementsOf(block).filter((element) => "copy" in element);
    expect(copies.every((copy) => copy.offset <= 0xffff && copy.offsetBytes !== 4)).toBe(true);
    // The repeat from 70,000 bytes back stays literal; most of the one from 13,000 back is copied.
    expect(copies.reduce((sum, copy) => sum + copy.copy, 0)).toBeGreaterThan(2_900);
    expect(block.length).toBeLessThan(73_200);
  });

  it.each([60, 61, 256, 257])("writes a literal of %i bytes with its length where the format puts it", (length) => {
    const input = Uint8Array.from({ length }, (_, index) => index);
    const block = roundTrip(input);
    const stored = length - 1;
    const head = stored < 60 ? [stored << 2] : stored < 256 ? [60 << 2, stored] : [61 << 2, stored & 0xff, stored >> 8];
    expect([...block.subarray(length < 128 ? 1 : 2, (length < 128 ? 1 : 2) + head.length)]).toEqual(head);
  });

  it("writes data that do not compress at little more than their length", () => {
    for (const length of [65_536, 65_537, 300_000]) {
      expect(roundTrip(scrambled(length, length)).length).toBeLessThan(length + 64);
    }
  });

  it("round-trips random bytes through both decoders", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3_000 }), (input) => void roundTrip(input)));
  });

  it("round-trips repetitive bytes through both decoders", () => {
    fc.assert(fc.property(repetitive, (input) => void roundTrip(input)));
  });

  it("compresses a large body of text with distant repeats as well as snappyjs does, and decodes it back", () => {
    const phrases = Array.from({ length: 500 }, (_, index) =>
      text(`series_${index * 7919}{job="node"} ${index / 3}\n`),
    );
    const parts = Array.from({ length: 40_000 }, (_, index) =>
      index % 1_000 === 0 ? scrambled(500, index + 1) : phrases[(index * 37) % 500]!,
    );
    const input = concat(...parts);
    expect(input.length).toBeGreaterThan(1 << 20);
    const block = roundTrip(input);
    expect(block.length).toBeLessThan(input.length / 3);
    expect(block.length).toBeLessThan(snappyjsCompress(input).length * 1.05);
  });

  it("compresses a large run of one byte to a small fraction", () => {
    const input = new Uint8Array(2 << 20).fill(7);
    expect(roundTrip(input).length).toBeLessThan(input.length / 20);
  });
});
