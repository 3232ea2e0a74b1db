/**
 * An encoder of the snappy block format (not the framed one), which Prometheus remote write
 * compresses its bodies with: the decompressed length as a varint, then literals and copies of
 * earlier bytes. Repeats are found by a hash table of 4-byte sequences, each position's entry the
 * latest position probed with the same hash. After 32 misses in a row the probes lie further apart
 * (a byte more per 32 misses, up to 8), so data that do not compress pass in a fraction of the
 * probes, and repeats after them are still found within a few probes.
 */

const elementKind = { literal: 0, copyWithOneByteOffset: 1, copyWithTwoByteOffset: 2 } as const;

/** Copies reach at most this far back: every copy then fits the two-byte offset form. */
const maxOffset = 0xffff;
/** The shortest copy worth writing: a copy element is 2 or 3 bytes. */
const minCopy = 4;
/** The one-byte offset form: lengths 4 to 11, offsets below 2048. */
const maxShortCopy = 11;
const maxShortCopyOffset = 2047;
/** The two-byte offset form: lengths 1 to 64. */
const maxCopy = 64;
/** Literals up to this long keep their length in the tag; longer ones in 1 to 4 bytes after it. */
const maxTagLiteral = 60;
/** Literals shorter than this are copied byte by byte: a view of the input would be an object each. */
const shortLiteral = 64;

/** The hash table has 2^8 to 2^14 entries: as many as the input has bytes, within those bounds. */
const maxHashBits = 14;
const minHashBits = 8;
/** An odd constant whose product spreads every byte of a word over the product's high bits, which are the hash. */
const hashMultiplier = 0x1e35a7bd;
/** After 2^5 = 32 misses in a row, the distance between probes grows by a byte, up to 8 bytes. */
const missesPerStepBits = 5;
const maxProbeStep = 8;

/** The format declares the decompressed length in 32 bits. */
const maxInput = 2 ** 32 - 1;

/** The snappy block holding `input`. */
export function encodeSnappyBlock(input: Uint8Array): Uint8Array {
  if (input.length > maxInput) {
    throw new RangeError(`snappy blocks hold at most ${maxInput} bytes; ${input.length} were given`);
  }
  return new SnappyBlockWriter(input).write();
}

/**
 * The most bytes a block of `length` input bytes takes: the declared length (at most 5 bytes), the
 * input, the first literal's tag, and the length bytes of literals over 60 bytes long (at most one
 * per 61 bytes of them). Every other literal's tag is paid for by the copy before it, which takes
 * at least a byte less than the bytes it stands for.
 */
function maxBlockBytes(length: number): number {
  return 6 + length + Math.ceil(length / 61);
}

const hashOf = (word: number, shift: number) => Math.imul(word, hashMultiplier) >>> shift;

/** The four bytes at `at`, little-endian, as an unsigned integer. */
function wordAt(input: Uint8Array, at: number): number {
  return (input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16) | (input[at + 3]! << 24)) >>> 0;
}

class SnappyBlockWriter {
  private readonly output: Uint8Array;
  private written = 0;

  constructor(private readonly input: Uint8Array) {
    this.output = new Uint8Array(maxBlockBytes(input.length));
  }

  write(): Uint8Array {
    const input = this.input;
    const length = input.length;
    this.varint(length);
    let hashBits = minHashBits;
    while (hashBits < maxHashBits && 1 << hashBits < length) hashBits++;
    const hashShift = 32 - hashBits;
    // Every entry starts at position 0, a candidate like any other: bytes are compared before a copy.
    const latest = new Int32Array(1 << hashBits);
    const lastProbe = length - minCopy;
    let literalStart = 0;
    let at = 1;
    let misses = 0;
    while (at <= lastProbe) {
      const word = wordAt(input, at);
      const hash = hashOf(word, hashShift);
      let candidate = latest[hash]!;
      latest[hash] = at;
      if (at - candidate > maxOffset || wordAt(input, candidate) !== word) {
        at += Math.min(maxProbeStep, 1 + (misses++ >>> missesPerStepBits));
        continue;
      }
      misses = 0;
      let end = at + minCopy;
      for (let from = candidate + minCopy; end < length && input[end] === input[from]; end++, from++);
      // The repeat may begin before the probe that found it.
      while (at > literalStart && candidate > 0 && input[at - 1] === input[candidate - 1]) {
        at--;
        candidate--;
      }
      this.literal(literalStart, at);
      this.copy(at - candidate, end - at);
      at = end;
      literalStart = end;
      // The position before the copy's end, so that a repeat running on after it is found.
      if (end - 1 <= lastProbe) latest[hashOf(wordAt(input, end - 1), hashShift)] = end - 1;
    }
    this.literal(literalStart, length);
    return this.output.slice(0, this.written);
  }

  /** The input's bytes from `start` to `end` as a literal element, if there are any. */
  private literal(start: number, end: number): void {
    const length = end - start;
    if (length === 0) return;
    const stored = length - 1;
    const output = this.output;
    if (stored < maxTagLiteral) {
      output[this.written++] = (stored << 2) | elementKind.literal;
    } else {
      const lengthBytes = stored < 0x100 ? 1 : stored < 0x10000 ? 2 : stored < 0x1000000 ? 3 : 4;
      output[this.written++] = ((maxTagLiteral - 1 + lengthBytes) << 2) | elementKind.literal;
      for (let index = 0; index < lengthBytes; index++) output[this.written++] = (stored >>> (8 * index)) & 0xff;
    }
    if (length < shortLiteral) {
      for (let from = start; from < end; from++) output[this.written++] = this.input[from]!;
    } else {
      output.set(this.input.subarray(start, end), this.written);
      this.written += length;
    }
  }

  /**
   * Copy elements for a repeat of `length` (at least 4) from `offset` back: 64 bytes each while
   * more than 67 remain, then 60 if more than 64 remain, so that none is shorter than 4.
   */
  private copy(offset: number, length: number): void {
    let rest = length;
    while (rest >= maxCopy + minCopy) {
      this.longCopy(offset, maxCopy);
      rest -= maxCopy;
    }
    if (rest > maxCopy) {
      this.longCopy(offset, maxCopy - minCopy);
      rest -= maxCopy - minCopy;
    }
    if (rest <= maxShortCopy && offset <= maxShortCopyOffset) {
      const output = this.output;
      output[this.written++] = ((offset >>> 8) << 5) | ((rest - minCopy) << 2) | elementKind.copyWithOneByteOffset;
      output[this.written++] = offset & 0xff;
    } else {
      this.longCopy(offset, rest);
    }
  }

  private longCopy(offset: number, length: number): void {
    const output = this.output;
    output[this.written++] = ((length - 1) << 2) | elementKind.copyWithTwoByteOffset;
    output[this.written++] = offset & 0xff;
    output[this.written++] = offset >>> 8;
  }

  private varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.output[this.written++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.output[this.written++] = rest;
  }
}
