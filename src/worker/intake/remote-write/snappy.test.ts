import fc from "fast-check";
import { compress as snappyjsCompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { decodeSnappyBlock, SnappyError } from "./snappy";

const limit = 1 << 20;
const text = (value: string) => new TextEncoder().encode(value);
const bytesOf = (...parts: (number | number[] | Uint8Array)[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "number" ? [part] : [...part])));
const littleEndian = (value: number, size: number) =>
  Array.from({ length: size }, (_, index) => Math.floor(value / 256 ** index) % 256);

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** One element of a block, in the form the test chooses (the format often allows several). */
type Element =
  | { literal: Uint8Array; lengthBytes: 0 | 1 | 2 | 3 | 4 }
  | { offset: number; length: number; offsetBytes: 1 | 2 | 4 };

function encodeElement(element: Element): number[] {
  if ("literal" in element) {
    const stored = element.literal.length - 1;
    const tag = element.lengthBytes === 0 ? stored << 2 : (59 + element.lengthBytes) << 2;
    return [tag, ...littleEndian(stored, element.lengthBytes), ...element.literal];
  }
  const { offset, length, offsetBytes } = element;
  if (offsetBytes === 1) return [1 | ((length - 4) << 2) | ((offset >>> 8) << 5), offset & 0xff];
  return [(offsetBytes === 2 ? 2 : 3) | ((length - 1) << 2), ...littleEndian(offset, offsetBytes)];
}

function encodeBlock(declared: number, elements: Element[]): Uint8Array {
  return bytesOf(varint(declared), ...elements.map(encodeElement));
}

/** What a sequence of elements stands for, by the format's definition: a copy reads what it writes. */
function expand(elements: Element[]): Uint8Array {
  const output: number[] = [];
  for (const element of elements) {
    if ("literal" in element) output.push(...element.literal);
    else for (let index = 0; index < element.length; index++) output.push(output[output.length - element.offset]!);
  }
  return Uint8Array.from(output);
}

function expectCorrupt(input: Uint8Array, message?: RegExp, maxBytes = limit) {
  let caught: unknown;
  try {
    decodeSnappyBlock(input, maxBytes);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SnappyError);
  expect((caught as SnappyError).tooLarge).toBe(false);
  if (message) expect((caught as SnappyError).message).toMatch(message);
}

/** Bytes with repeats near and far, which a compressor turns into copies of every offset size it uses. */
const compressible = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 40 }),
      fc.tuple(fc.constantFrom(...text("abc")), fc.integer({ min: 1, max: 300 })).map(([byte, count]) => {
        return new Uint8Array(count).fill(byte);
      }),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .chain((parts) =>
    fc.array(fc.integer({ min: 0, max: parts.length - 1 }), { maxLength: 60 }).map((picks) => {
      const chosen = [...parts, ...picks.map((pick) => parts[pick]!)];
      return bytesOf(...chosen);
    }),
  );

const snappyjs = (input: Uint8Array) => snappyjsCompress(input);

describe("decodeSnappyBlock", () => {
  it("decodes the empty block", () => {
    expect(decodeSnappyBlock(bytesOf(0), limit)).toEqual(new Uint8Array());
  });

  it("decodes a short literal", () => {
    expect(decodeSnappyBlock(bytesOf(3, 0x08, text("abc")), limit)).toEqual(text("abc"));
  });

  it.each([1, 2, 3, 4] as const)("decodes a literal whose length takes %i more bytes", (lengthBytes) => {
    const literal = new Uint8Array(lengthBytes === 1 ? 200 : 300).map((_, index) => index);
    const block = encodeBlock(literal.length, [{ literal, lengthBytes }]);
    expect(block[varint(literal.length).length]).toBe((59 + lengthBytes) << 2);
    expect(decodeSnappyBlock(block, limit)).toEqual(literal);
  });

  it("decodes a literal of 61 bytes, the first that needs a length byte", () => {
    const literal = new Uint8Array(61).fill(7);
    expect(decodeSnappyBlock(encodeBlock(61, [{ literal, lengthBytes: 1 }]), limit)).toEqual(literal);
  });

  it("decodes a copy with a one-byte offset, its offset's high bits in the tag", () => {
    const literal = new Uint8Array(1500).map((_, index) => index * 7);
    const elements: Element[] = [
      { literal, lengthBytes: 2 },
      { offset: 1400, length: 11, offsetBytes: 1 },
      { offset: 3, length: 4, offsetBytes: 1 },
    ];
    const block = encodeBlock(1515, elements);
    expect(decodeSnappyBlock(block, limit)).toEqual(expand(elements));
    expect([...decodeSnappyBlock(block, limit).subarray(1500, 1511)]).toEqual([...literal.subarray(100, 111)]);
  });

  it("decodes a copy with a two-byte offset", () => {
    const literal = new Uint8Array(40_000).map((_, index) => index % 251);
    const elements: Element[] = [
      { literal, lengthBytes: 2 },
      { offset: 39_000, length: 64, offsetBytes: 2 },
    ];
    expect(decodeSnappyBlock(encodeBlock(40_064, elements), limit)).toEqual(expand(elements));
  });

  it("decodes a copy with a four-byte offset, beyond what two bytes reach", () => {
    const literal = new Uint8Array(70_000).map((_, index) => index % 253);
    const elements: Element[] = [
      { literal, lengthBytes: 3 },
      { offset: 70_000, length: 64, offsetBytes: 4 },
      { offset: 1, length: 1, offsetBytes: 4 },
    ];
    const output = decodeSnappyBlock(encodeBlock(70_065, elements), limit);
    expect(output).toEqual(expand(elements));
    expect([...output.subarray(70_000, 70_064)]).toEqual([...literal.subarray(0, 64)]);
  });

  it("repeats a pattern when a copy overlaps what it writes", () => {
    const elements: Element[] = [
      { literal: text("ab"), lengthBytes: 0 },
      { offset: 2, length: 10, offsetBytes: 1 },
      { offset: 1, length: 64, offsetBytes: 2 },
    ];
    expect(new TextDecoder().decode(decodeSnappyBlock(encodeBlock(76, elements), limit))).toBe(
      `abababababab${"b".repeat(64)}`,
    );
  });

  it("reads a multi-byte declared length", () => {
    const literal = new Uint8Array(200).fill(1);
    const block = encodeBlock(200, [{ literal, lengthBytes: 1 }]);
    expect([...block.subarray(0, 2)]).toEqual([0xc8, 0x01]);
    expect(decodeSnappyBlock(block, limit)).toEqual(literal);
  });

  it("decodes whatever elements, in whatever form, to what they stand for", () => {
    const block = fc
      .array(
        fc.record({
          literal: fc.uint8Array({ minLength: 1, maxLength: 80 }),
          lengthBytes: fc.constantFrom(0, 1, 2, 3, 4),
          copy: fc.boolean(),
          offset: fc.nat(),
          length: fc.integer({ min: 1, max: 64 }),
          offsetBytes: fc.constantFrom(1, 2, 4),
        }),
        { maxLength: 40 },
      )
      .map((choices) => {
        const elements: Element[] = [];
        let written = 0;
        for (const choice of choices) {
          const copyFits = choice.offsetBytes !== 1 || choice.length >= 4;
          if (choice.copy && written > 0 && copyFits) {
            const limitOfForm = choice.offsetBytes === 1 ? 2048 : choice.offsetBytes === 2 ? 65_536 : 2 ** 32;
            const offset = 1 + (choice.offset % Math.min(written, limitOfForm - 1));
            const length = choice.offsetBytes === 1 ? Math.min(choice.length, 11) : choice.length;
            elements.push({ offset, length, offsetBytes: choice.offsetBytes });
            written += length;
          } else {
            const lengthBytes = choice.lengthBytes === 0 && choice.literal.length > 60 ? 1 : choice.lengthBytes;
            elements.push({ literal: choice.literal, lengthBytes });
            written += choice.literal.length;
          }
        }
        return elements;
      });
    fc.assert(
      fc.property(block, (elements) => {
        const expected = expand(elements);
        expect(decodeSnappyBlock(encodeBlock(expected.length, elements), limit)).toEqual(expected);
      }),
    );
  });

  it("decodes what an independent compressor writes", () => {
    fc.assert(
      fc.property(compressible, (input) => {
        expect(decodeSnappyBlock(snappyjs(input), limit)).toEqual(input);
      }),
    );
  });

  it("decodes a large body with distant repeats, over several of the compressor's fragments", () => {
    const phrases = Array.from({ length: 400 }, (_, index) => text(`series_${index * 7919} value ${index / 3} `));
    const input = bytesOf(...Array.from({ length: 12_000 }, (_, index) => phrases[(index * 37) % 400]!));
    const compressed = snappyjs(input);
    expect(compressed.length).toBeLessThan(input.length / 4);
    expect(decodeSnappyBlock(compressed, input.length)).toEqual(input);
  });

  it("accepts a declared length equal to the limit and refuses one above it as too large", () => {
    const block = bytesOf(3, 0x08, text("abc"));
    expect(decodeSnappyBlock(block, 3)).toEqual(text("abc"));
    let caught: unknown;
    try {
      decodeSnappyBlock(block, 2);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SnappyError);
    expect((caught as SnappyError).tooLarge).toBe(true);
    expect((caught as SnappyError).message).toMatch(/declares 3 bytes decompressed; at most 2/);
  });

  it("refuses a declared length above the limit as too large before looking at the elements", () => {
    expect(() => decodeSnappyBlock(bytesOf(varint(2 ** 32 - 1)), limit)).toThrow(
      expect.objectContaining({ tooLarge: true }),
    );
  });

  it.each([
    ["an empty body", bytesOf(), /ends within its length/],
    ["a length cut short", bytesOf(0x80), /ends within its length/],
    ["a length of more than 5 bytes", bytesOf(0x80, 0x80, 0x80, 0x80, 0x80, 0x00), /does not fit in 32 bits/],
    ["a length of 2^32", bytesOf(0x80, 0x80, 0x80, 0x80, 0x10), /does not fit in 32 bits/],
    ["a length no element can make up", bytesOf(100, 0x00, 0x61), /more than its 3 can hold/],
    ["a first element that copies", bytesOf(4, 0x01, 0x01), /copy from 1 bytes back, where 0 were written/],
    ["a copy from offset 0", bytesOf(8, 0x0c, text("abcd"), 0x01, 0x00), /copy from 0 bytes back/],
    ["a copy from before the start", bytesOf(8, 0x0c, text("abcd"), 0x02, 0x05, 0x00), /copy from 5 bytes back/],
    ["a literal past the declared length", bytesOf(2, 0x08, text("abc")), /more than the 2 bytes it declares/],
    ["a copy past the declared length", bytesOf(8, 0x0c, text("abcd"), 0x05, 0x04), /more than the 8 bytes/],
    ["fewer bytes than declared", bytesOf(5, 0x08, text("abc")), /holds 3 bytes; it declares 5/],
    ["a literal cut short", bytesOf(5, 0x10, text("abc")), /literal of 5 bytes runs past the end at byte 2/],
    ["a literal's length cut short", bytesOf(5, 0xf4, 0x04), /element runs past the end at byte 2/],
    ["a one-byte offset cut short", bytesOf(5, 0x00, 0x61, 0x01), /element runs past the end at byte 4/],
    ["a two-byte offset cut short", bytesOf(5, 0x00, 0x61, 0x02, 0x01), /element runs past the end/],
    ["a four-byte offset cut short", bytesOf(5, 0x00, 0x61, 0x03, 0x01, 0x00, 0x00), /element runs past the end/],
    ["a literal's length of 2^32", bytesOf(5, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x61), /literal of 4294967296 bytes/],
  ])("refuses %s as corrupt", (_, input, message) => {
    expectCorrupt(input, message);
  });

  it("refuses every truncation of a valid block as corrupt", () => {
    const elements: Element[] = [
      { literal: text("remote write "), lengthBytes: 0 },
      { offset: 13, length: 11, offsetBytes: 1 },
      { literal: new Uint8Array(70).fill(9), lengthBytes: 2 },
      { offset: 80, length: 64, offsetBytes: 2 },
      { offset: 7, length: 30, offsetBytes: 4 },
    ];
    const expected = expand(elements);
    const blocks = [encodeBlock(expected.length, elements), snappyjs(bytesOf(...Array(40).fill(text("cpu_idle "))))];
    for (const block of blocks) {
      expect(decodeSnappyBlock(block, limit).length).toBeGreaterThan(0);
      for (let end = 0; end < block.length; end++) expectCorrupt(block.subarray(0, end));
    }
  });

  it("decodes corrupt bodies to their declared length or a SnappyError, nothing else", () => {
    const corrupted = fc
      .tuple(
        compressible.map(snappyjs),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      )
      .map(([block, changes]) => {
        const copy = block.slice();
        for (const [position, byte] of changes) copy[position % copy.length] = byte;
        return copy;
      });
    fc.assert(
      fc.property(fc.oneof(corrupted, fc.uint8Array({ maxLength: 200 })), (input) => {
        try {
          const output = decodeSnappyBlock(input, limit);
          expect(output.length).toBeLessThanOrEqual(limit);
        } catch (error) {
          expect(error).toBeInstanceOf(SnappyError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
