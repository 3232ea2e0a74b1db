import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatumRow } from "./datum";
import { blocksOf, firstOfLatest, joinedBlocks, rowBlock, rowsOfBlocks } from "./row-block";
import { rowValue } from "./row-value";

const unlabelled = (row: DatumRow): DatumRow => [row[0], row[1], row[2], row[3]];

const anyRow = fc
  .tuple(fc.string({ unit: "binary" }), fc.double(), fc.double(), fc.string({ unit: "binary" }), fc.boolean())
  .map(([id, timestamp, value, resourceId, labelled]): DatumRow => {
    const row: DatumRow = [id, timestamp, rowValue(value), resourceId];
    return labelled ? [...row, { pairs: [["host", resourceId]] }] : row;
  });

describe("row blocks", () => {
  it("give back every row without its labels, block by block, in order, whatever their texts and numbers", () => {
    fc.assert(
      fc.property(fc.array(fc.array(anyRow, { maxLength: 20 }), { maxLength: 5 }), (batches) => {
        const joined = joinedBlocks(batches.map(rowBlock));
        expect(blocksOf(joined).map(({ rows }) => rows)).toEqual(batches.map((rows) => rows.length));
        const read = rowsOfBlocks(joined);
        expect(read).toEqual(batches.map((rows) => rows.map(unlabelled)));
        const values = (blocks: DatumRow[][]) => blocks.flat().map((row) => Object.is(row[2], -0));
        expect(values(read)).toEqual(values(batches));
      }),
    );
  });

  it("reads blocks wherever they lie in a larger buffer", () => {
    const rows: DatumRow[] = [["d1", 1_000, "NaN", "vm1"]];
    const block = rowBlock(rows);
    const larger = new Uint8Array(block.length + 3);
    larger.set(block, 3);
    expect(rowsOfBlocks(larger.subarray(3))).toEqual([rows]);
  });

  it("refuses bytes that are not a block, saying why", () => {
    const block = rowBlock([["d1", 1_000, 2, "vm1"]]);
    expect(() => rowsOfBlocks(block.subarray(0, 8))).toThrow("shorter than its header");
    expect(() => rowsOfBlocks(block.subarray(0, block.length - 1))).toThrow("describes more than its");
    const otherVersion = block.slice();
    otherVersion[0] = 9;
    expect(() => rowsOfBlocks(otherVersion)).toThrow("layout version 9");
    const otherEncoding = block.slice();
    otherEncoding[8] = 7;
    expect(() => rowsOfBlocks(otherEncoding)).toThrow("does not describe its");
    const longId = block.slice();
    new DataView(longId.buffer).setUint32(16 + 16, 40, true);
    expect(() => rowsOfBlocks(longId)).toThrow("shorter than their lengths");
    const shortId = block.slice();
    new DataView(shortId.buffer).setUint32(16 + 16, 1, true);
    expect(() => rowsOfBlocks(shortId)).toThrow("longer than their lengths");
  });

  it("find the first of the blocks that hold the latest rows", () => {
    const blocks = [600, 1_000, 100, 1].map((rows) => ({ rows }));
    expect(firstOfLatest(blocks, 1_000)).toBe(1);
    expect(firstOfLatest(blocks, 101)).toBe(2);
    expect(firstOfLatest(blocks, 5_000)).toBe(0);
    expect(firstOfLatest([], 1_000)).toBe(0);
  });
});
