import { bytesWithTexts, knownTextEncoding, textsAt } from "../common/text-bytes";
import type { DatumRow } from "./datum";
import { rowDouble, rowValue } from "./row-value";

/*
 * Rows kept without their labels (a metric's recent data, a summary shard's pending intake) as
 * blocks of bytes, which storage keeps and hands on as they are: the numbers as doubles, the texts
 * one after the other. Written as JSON, most of a kept row's cost was writing its timestamp and
 * value as decimal text, and an array made for each row. Blocks put one after the other (a batch's
 * blocks of several metrics, a lease's blocks of one metric) are read by their headers.
 *
 * A block, little-endian; offsets in bytes:
 *    0  u32  layout version (1)
 *    4  u32  rows
 *    8  u32  the texts' encoding (see text-bytes.ts)
 *   12  u32  the texts' bytes
 *   16  f64 × rows: the timestamps; then f64 × rows: the values (a non-finite one as the double it names)
 *       u32 × 2 × rows: each row's id length and resourceId length, in UTF-16 code units
 *       the texts: each row's id then its resourceId
 */

const layoutVersion = 1;
const headerBytes = 16;

/** A block's bytes before its texts. */
const textOffset = (rows: number) => headerBytes + 24 * rows;

/** The block of `rows`, in their order. */
export function rowBlock(rows: readonly DatumRow[]): Uint8Array {
  const count = rows.length;
  const texts: string[] = new Array(2 * count);
  for (let index = 0; index < count; index++) {
    const row = rows[index]!;
    texts[2 * index] = row[0];
    texts[2 * index + 1] = row[3];
  }
  const textAt = textOffset(count);
  const { bytes, encoding, textBytes } = bytesWithTexts(textAt, texts.join(""));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, layoutVersion, true);
  view.setUint32(4, count, true);
  view.setUint32(8, encoding, true);
  view.setUint32(12, textBytes, true);
  const lengthsAt = headerBytes + 16 * count;
  for (let index = 0; index < count; index++) {
    const row = rows[index]!;
    view.setFloat64(headerBytes + 8 * index, row[1], true);
    view.setFloat64(headerBytes + 8 * (count + index), rowDouble(row[2]), true);
    view.setUint32(lengthsAt + 8 * index, row[0].length, true);
    view.setUint32(lengthsAt + 8 * index + 4, row[3].length, true);
  }
  return bytes;
}

/** Blocks one after the other, as one run of bytes. */
export function joinedBlocks(blocks: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(blocks.reduce((bytes, block) => bytes + block.length, 0));
  let offset = 0;
  for (const block of blocks) {
    joined.set(block, offset);
    offset += block.length;
  }
  return joined;
}

const malformed = (problem: string) => new Error(`malformed row block: ${problem}`);

/** Where a block lies in blocks put one after the other, and how many rows it holds. */
export interface PlacedBlock {
  offset: number;
  bytes: number;
  rows: number;
}

/** The blocks of `joined` (see joinedBlocks), by their headers; throws when their lengths do not add up. */
export function blocksOf(joined: Uint8Array): PlacedBlock[] {
  const view = new DataView(joined.buffer, joined.byteOffset, joined.byteLength);
  const blocks: PlacedBlock[] = [];
  for (let offset = 0; offset < joined.length; ) {
    if (joined.length - offset < headerBytes)
      throw malformed(`${joined.length - offset} bytes, shorter than its header`);
    const rows = view.getUint32(offset + 4, true);
    const bytes = textOffset(rows) + view.getUint32(offset + 12, true);
    if (offset + bytes > joined.length)
      throw malformed(`its header describes more than its ${joined.length - offset} bytes`);
    blocks.push({ offset, bytes, rows });
    offset += bytes;
  }
  return blocks;
}

/** Of blocks in their order, the first of those that hold the last `latest` rows (0 when they hold fewer). */
export function firstOfLatest(blocks: readonly { rows: number }[], latest: number): number {
  let first = blocks.length;
  for (let rows = 0; first > 0 && rows < latest; ) rows += blocks[--first]!.rows;
  return first;
}

/** The rows of each block of `joined` (see joinedBlocks), in their order; throws when the bytes are not blocks. */
export function rowsOfBlocks(joined: Uint8Array): DatumRow[][] {
  return blocksOf(joined).map(({ offset, bytes }) => rowsOfBlock(joined.subarray(offset, offset + bytes)));
}

/** The rows of a block, in their order; throws when the bytes are not a block. */
function rowsOfBlock(block: Uint8Array): DatumRow[] {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  if (block.length < headerBytes) throw malformed(`${block.length} bytes, shorter than its header`);
  if (view.getUint32(0, true) !== layoutVersion) throw malformed(`layout version ${view.getUint32(0, true)}`);
  const count = view.getUint32(4, true);
  const encoding = view.getUint32(8, true);
  const textBytes = view.getUint32(12, true);
  const textAt = textOffset(count);
  if (textAt + textBytes !== block.length || !knownTextEncoding(encoding, textBytes)) {
    throw malformed(`its header does not describe its ${block.length} bytes`);
  }
  const texts = textsAt(block, textAt, textBytes, encoding);
  if (texts === undefined) throw malformed("its texts are not UTF-8");
  const lengthsAt = headerBytes + 16 * count;
  const rows: DatumRow[] = new Array(count);
  let position = 0;
  for (let index = 0; index < count; index++) {
    const idEnd = position + view.getUint32(lengthsAt + 8 * index, true);
    const resourceEnd = idEnd + view.getUint32(lengthsAt + 8 * index + 4, true);
    if (resourceEnd > texts.length) throw malformed("its texts are shorter than their lengths");
    rows[index] = [
      texts.slice(position, idEnd),
      view.getFloat64(headerBytes + 8 * index, true),
      rowValue(view.getFloat64(headerBytes + 8 * (count + index), true)),
      texts.slice(idEnd, resourceEnd),
    ];
    position = resourceEnd;
  }
  if (position !== texts.length) throw malformed("its texts are longer than their lengths");
  return rows;
}
