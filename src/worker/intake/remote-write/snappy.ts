/**
 * A decoder of the snappy block format (not the framed one), which Prometheus remote write
 * compresses its bodies with. The body declares its decompressed length first; every element is
 * checked against the input's end and that length, so a corrupt body is a SnappyError, never a
 * read or write out of bounds, and the work is linear in the input and output sizes.
 */

export class SnappyError extends Error {
  /**
   * @param tooLarge the body declares more bytes than the limit (a 413), rather than being corrupt (a 400)
   */
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = "SnappyError";
  }
}

const elementKind = { literal: 0, copyWithOneByteOffset: 1, copyWithTwoByteOffset: 2 } as const;

/**
 * The most output bytes a byte of elements can stand for: a copy with a two-byte offset is 3
 * bytes and writes at most 64. A declared length beyond it is refused before it is allocated.
 */
const maxExpansion = 64 / 3;

/** Literals shorter than this are copied without a view of the input. */
const shortLiteral = 64;

/** The decompressed bytes of a snappy block that declares at most `maxBytes` of them. */
export function decodeSnappyBlock(input: Uint8Array, maxBytes: number): Uint8Array {
  const [declared, start] = readDeclaredLength(input);
  if (declared > maxBytes) {
    throw new SnappyError(`the body declares ${declared} bytes decompressed; at most ${maxBytes} are accepted`, true);
  }
  if (declared > (input.length - start) * maxExpansion) {
    throw new SnappyError(`the body declares ${declared} bytes decompressed, more than its ${input.length} can hold`);
  }
  const output = new Uint8Array(declared);
  let at = start;
  let written = 0;
  while (at < input.length) {
    const tag = input[at++]!;
    const kind = tag & 3;
    if (kind === elementKind.literal) {
      let length = (tag >>> 2) + 1;
      if (length > 60) {
        const lengthBytes = length - 60;
        length = readLittleEndian(input, at, lengthBytes) + 1;
        at += lengthBytes;
      }
      if (length > input.length - at)
        throw new SnappyError(`a literal of ${length} bytes runs past the end at byte ${at}`);
      if (length > declared - written) throw overrun(declared);
      if (length < shortLiteral) {
        // Short literals, most of them, byte by byte: a view of the input would be an object each.
        for (const end = at + length; at < end; at++, written++) output[written] = input[at]!;
      } else {
        output.set(input.subarray(at, at + length), written);
        at += length;
        written += length;
      }
      continue;
    }
    let length: number;
    let offset: number;
    if (kind === elementKind.copyWithOneByteOffset) {
      length = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | readLittleEndian(input, at, 1);
      at += 1;
    } else {
      length = (tag >>> 2) + 1;
      const offsetBytes = kind === elementKind.copyWithTwoByteOffset ? 2 : 4;
      offset = readLittleEndian(input, at, offsetBytes);
      at += offsetBytes;
    }
    if (offset === 0 || offset > written) {
      throw new SnappyError(`a copy from ${offset} bytes back, where ${written} were written, at byte ${at}`);
    }
    if (length > declared - written) throw overrun(declared);
    // Byte by byte: a copy may overlap what it writes (offset < length repeats a pattern).
    for (let from = written - offset, end = written + length; written < end; written++, from++) {
      output[written] = output[from]!;
    }
  }
  if (written !== declared) throw new SnappyError(`the body holds ${written} bytes; it declares ${declared}`);
  return output;
}

/** The preamble: the decompressed length as a varint of at most 32 bits, and where the elements start. */
function readDeclaredLength(input: Uint8Array): [length: number, start: number] {
  let length = 0;
  for (let index = 0; index < 5; index++) {
    if (index >= input.length) throw new SnappyError("the body ends within its length");
    const byte = input[index]!;
    length += (byte & 0x7f) * 2 ** (7 * index);
    if (byte < 0x80) {
      if (length >= 2 ** 32) break;
      return [length, index + 1];
    }
  }
  throw new SnappyError("the body's length does not fit in 32 bits");
}

function readLittleEndian(input: Uint8Array, at: number, size: number): number {
  if (input.length - at < size) throw new SnappyError(`an element runs past the end at byte ${at}`);
  let value = 0;
  for (let index = size - 1; index >= 0; index--) value = value * 256 + input[at + index]!;
  return value;
}

function overrun(declared: number): SnappyError {
  return new SnappyError(`the body decompresses to more than the ${declared} bytes it declares`);
}
