/*
 * Miniflare hands workerd its configuration as one Cap'n Proto message (workerd.capnp's `Config`)
 * on standard input, and has no option for the field `v8Flags`, the V8 flags of every isolate.
 * This adds them to the message as it passes: a list of texts appended to the first segment, and
 * the root struct's pointer to it. Nothing else in the message moves, so every other pointer
 * (each relative to its own place, or naming a segment and an offset in it) stays valid.
 */

/** `Config.v8Flags` is the root struct's third pointer (workerd.capnp: `v8Flags @2 :List(Text)`). */
const v8FlagsPointer = 2;
const wordBytes = 8;
const structPointer = 0n;
const listPointer = 1n;
const byteElements = 2n;
const pointerElements = 6n;

/** A list pointer at word `at` to `count` elements of `elementSize` starting at word `target`. */
function listPointerWord(at: number, target: number, elementSize: bigint, count: number): bigint {
  const offset = BigInt(target - (at + 1)) & 0x3fff_ffffn;
  return listPointer | (offset << 2n) | (elementSize << 32n) | (BigInt(count) << 35n);
}

/** The word index, in the first segment, of the root struct's pointer `index`. */
function rootPointerAt(segment: DataView, index: number): number {
  const root = segment.getBigUint64(0, true);
  if ((root & 3n) !== structPointer) throw new Error("workerd's configuration does not start with a struct");
  const offset = Number(BigInt.asIntN(30, (root >> 2n) & 0x3fff_ffffn));
  const dataWords = Number((root >> 32n) & 0xffffn);
  const pointers = Number((root >> 48n) & 0xffffn);
  if (index >= pointers) throw new Error("workerd's configuration has no room for V8 flags");
  return 1 + offset + dataWords + index;
}

/** `config` (a framed Cap'n Proto message of workerd's `Config`) with `flags` as its V8 flags. */
export function withV8Flags(config: Uint8Array, flags: readonly string[]): Uint8Array {
  if (flags.length === 0) return config;
  const view = new DataView(config.buffer, config.byteOffset, config.byteLength);
  const segmentCount = view.getUint32(0, true) + 1;
  const sizes = Array.from({ length: segmentCount }, (_, index) => view.getUint32(4 + 4 * index, true));
  const headerBytes = Math.ceil((4 + 4 * segmentCount) / wordBytes) * wordBytes;
  const firstSegmentWords = sizes[0]!;
  // A copy of its own: a Node Buffer's slice() would share the buffer, and its offset with it.
  const firstSegment = new Uint8Array(config.subarray(headerBytes, headerBytes + firstSegmentWords * wordBytes));
  const laterSegments = config.subarray(headerBytes + firstSegmentWords * wordBytes);
  const segmentView = new DataView(firstSegment.buffer, firstSegment.byteOffset, firstSegment.byteLength);
  const slot = rootPointerAt(segmentView, v8FlagsPointer);
  if (segmentView.getBigUint64(slot * wordBytes, true) !== 0n) throw new Error("workerd's configuration has V8 flags");

  // The list of pointers, then each flag's bytes and its terminating NUL, padded to whole words.
  const texts = flags.map((flag) => new TextEncoder().encode(flag));
  const listAt = firstSegmentWords;
  const textsAt: number[] = [];
  let appendedWords = texts.length;
  for (const text of texts) {
    textsAt.push(listAt + appendedWords);
    appendedWords += Math.ceil((text.length + 1) / wordBytes);
  }
  const appended = new Uint8Array(appendedWords * wordBytes);
  const appendedView = new DataView(appended.buffer);
  texts.forEach((text, index) => {
    const pointer = listPointerWord(listAt + index, textsAt[index]!, byteElements, text.length + 1);
    appendedView.setBigUint64(index * wordBytes, pointer, true);
    appended.set(text, (textsAt[index]! - listAt) * wordBytes);
  });
  segmentView.setBigUint64(slot * wordBytes, listPointerWord(slot, listAt, pointerElements, texts.length), true);

  const header = new Uint8Array(headerBytes);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, segmentCount - 1, true);
  for (const [index, size] of sizes.entries()) {
    headerView.setUint32(4 + 4 * index, index === 0 ? size + appendedWords : size, true);
  }
  const patched = new Uint8Array(config.length + appended.length);
  patched.set(header, 0);
  patched.set(firstSegment, headerBytes);
  patched.set(appended, headerBytes + firstSegment.length);
  patched.set(laterSegments, headerBytes + firstSegment.length + appended.length);
  return patched;
}
