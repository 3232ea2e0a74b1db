/*
 * The bench's receivers count the samples a metrics backend would get by their values alone: this
 * reads the doubles of one field nested in protobuf messages, skipping everything else, without
 * a schema or an object per message. The Worker's own protobuf reader is Worker code, which the
 * bench's type check (tsconfig.node.json) does not take.
 */

const wireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

/** A varint at `at`, below `end`: its value (exact up to 2^53) and where the next field starts. */
function readVarint(bytes: Uint8Array, at: number, end: number): [value: number, next: number] {
  let value = 0;
  for (let index = 0; index < 10; index++) {
    if (at + index >= end) throw new Error(`a varint runs past its message's end at byte ${at}`);
    const byte = bytes[at + index]!;
    value += (byte & 0x7f) * 2 ** (7 * index);
    if (byte < 0x80) return [value, at + index + 1];
  }
  throw new Error(`a varint longer than 10 bytes at byte ${at}`);
}

function checkedEnd(at: number, length: number, end: number): number {
  if (length > end - at) throw new Error(`a field of ${length} bytes runs past its message's end at byte ${at}`);
  return at + length;
}

/**
 * Appends to `values` the doubles at `path[depth..]` within bytes[start, end): at the path's last
 * field, one per message that holds it, 0 when the message leaves it out (proto3 writes no
 * default value; the last one sent wins).
 */
function collectDoubles(
  bytes: Uint8Array,
  view: DataView,
  range: readonly [start: number, end: number],
  path: readonly number[],
  depth: number,
  values: number[],
): void {
  const [start, end] = range;
  const holdsValue = depth === path.length - 1;
  let value = 0;
  for (let at = start; at < end; ) {
    const [key, afterKey] = readVarint(bytes, at, end);
    const wanted = Math.floor(key / 8) === path[depth];
    const type = key % 8;
    at = afterKey;
    if (type === wireType.varint) {
      at = readVarint(bytes, at, end)[1];
    } else if (type === wireType.fixed64) {
      const next = checkedEnd(at, 8, end);
      if (wanted && holdsValue) value = view.getFloat64(at, true);
      at = next;
    } else if (type === wireType.lengthDelimited) {
      const [length, from] = readVarint(bytes, at, end);
      at = checkedEnd(from, length, end);
      if (wanted && !holdsValue) collectDoubles(bytes, view, [from, at], path, depth + 1, values);
    } else if (type === wireType.fixed32) {
      at = checkedEnd(at, 4, end);
    } else {
      throw new Error(`wire type ${type} at byte ${afterKey - 1}`);
    }
  }
  if (holdsValue) values.push(value);
}

/**
 * The doubles of the fixed64 field at the end of `path` (field numbers, from the outer message
 * in), one per message that holds that field, in the order they come, e.g. [1, 2, 1] for a remote
 * write WriteRequest's sample values (timeseries, samples, value). Throws when the bytes are not
 * protobuf.
 */
export function nestedDoubles(bytes: Uint8Array, path: readonly number[]): number[] {
  if (path.length < 2) throw new Error("a path through at least one message to a field");
  const values: number[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  collectDoubles(bytes, view, [0, bytes.length], path, 0, values);
  return values;
}
