/**
 * Values found again by the bytes they were made from. An agent's requests repeat the same bytes
 * request after request (label names and values, a series' whole label set at every scrape), and
 * finding a value made before costs less than making it again, and makes no garbage. A table
 * keeps only frozen values (strings are): a value found again is shared by all it is found for,
 * none of which may change it. A table is bounded: past `maxEntries` it starts again empty.
 */

interface Entry<T> {
  bytes: Uint8Array;
  value: T;
}

/**
 * A hash of the bytes within the small integers, which a Map takes as keys without boxing them. The
 * bits left out are the highest, which differences in the bytes reach last.
 */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  return (hash ^ (end - start)) & 0x3fff_ffff;
}

function sameBytes(entry: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (entry.length !== end - start) return false;
  for (let index = 0; index < entry.length; index++) if (entry[index] !== bytes[start + index]) return false;
  return true;
}

export class BytesTable<T> {
  private readonly entries = new Map<number, Entry<T>>();

  /** Values of more than `maxBytes` are not kept: they are rarely repeated, and would hold much memory. */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** The value kept for `bytes[start, end)`, if any. */
  find(bytes: Uint8Array, start: number, end: number): T | undefined {
    if (end - start > this.maxBytes) return undefined;
    const known = this.entries.get(hashOf(bytes, start, end));
    return known !== undefined && sameBytes(known.bytes, bytes, start, end) ? known.value : undefined;
  }

  /** Keeps `value`, made of `bytes[start, end)`, if it is frozen and the bytes are few enough; keeps a copy of the bytes. */
  keep(bytes: Uint8Array, start: number, end: number, value: T): void {
    if (end - start > this.maxBytes || !Object.isFrozen(value)) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(hashOf(bytes, start, end), { bytes: bytes.slice(start, end), value });
  }
}
