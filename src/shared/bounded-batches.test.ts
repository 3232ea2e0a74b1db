import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BatchLimits, packBatches } from "./bounded-batches.ts";

const identity = (size: number) => size;
const itemsOf = <T>(batches: { items: T[] }[]) => batches.map((batch) => batch.items);

describe("packBatches", () => {
  it("returns no batch for no items", () => {
    expect(packBatches([], { maxItems: 3, maxSize: 10, sizeOf: identity })).toEqual([]);
  });

  it("closes a batch when it holds maxItems items", () => {
    expect(packBatches(["a", "b", "c", "d", "e"], { maxItems: 2 })).toEqual([
      { items: ["a", "b"], size: 0 },
      { items: ["c", "d"], size: 0 },
      { items: ["e"], size: 0 },
    ]);
  });

  it("fills a batch up to exactly maxSize and reports each batch's total size", () => {
    const words = ["aa", "b", "ccc", "d", "ee"];
    expect(packBatches(words, { maxSize: 3, sizeOf: (word) => word.length })).toEqual([
      { items: ["aa", "b"], size: 3 },
      { items: ["ccc"], size: 3 },
      { items: ["d", "ee"], size: 3 },
    ]);
  });

  it("closes a batch at whichever limit it reaches first", () => {
    const batches = packBatches([1, 1, 1, 8, 3, 1, 1], { maxItems: 2, maxSize: 10, sizeOf: identity });
    expect(batches).toEqual([
      { items: [1, 1], size: 2 },
      { items: [1, 8], size: 9 },
      { items: [3, 1], size: 4 },
      { items: [1], size: 1 },
    ]);
  });

  it("gives an item larger than maxSize a batch of its own instead of dropping it", () => {
    expect(packBatches([2, 9, 2, 3], { maxSize: 5, sizeOf: identity })).toEqual([
      { items: [2], size: 2 },
      { items: [9], size: 9 },
      { items: [2, 3], size: 5 },
    ]);
    expect(itemsOf(packBatches([9, 7, 1], { maxSize: 5, sizeOf: identity }))).toEqual([[9], [7], [1]]);
  });

  it("keeps the items in order and reads them from any iterable", () => {
    function* letters() {
      yield* "abcdefg";
    }
    expect(itemsOf(packBatches(letters(), { maxItems: 3 }))).toEqual([["a", "b", "c"], ["d", "e", "f"], ["g"]]);
  });

  it("puts everything in one batch when no limit is given", () => {
    expect(packBatches([5, 6, 7], { sizeOf: identity })).toEqual([{ items: [5, 6, 7], size: 18 }]);
  });

  it("loses and reorders nothing, and fills every batch as far as the limits allow", () => {
    const limits = fc.record({
      maxItems: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
      maxSize: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 20 }), { maxLength: 60 }), limits, (sizes, { maxItems, maxSize }) => {
        const batchLimits: BatchLimits<number> = { maxItems, maxSize, sizeOf: identity };
        const batches = packBatches(sizes, batchLimits);
        const itemLimit = maxItems ?? Number.POSITIVE_INFINITY;
        const sizeLimit = maxSize ?? Number.POSITIVE_INFINITY;

        expect(batches.flatMap((batch) => batch.items)).toEqual(sizes);
        for (const { items, size } of batches) {
          expect(items.length).toBeGreaterThan(0);
          expect(items.length).toBeLessThanOrEqual(itemLimit);
          expect(size).toBe(items.reduce((sum, item) => sum + item, 0));
          if (items.length > 1) expect(size).toBeLessThanOrEqual(sizeLimit);
        }
        batches.slice(1).forEach((next, index) => {
          const previous = batches[index]!;
          const nextItem = next.items[0]!;
          expect(previous.items.length === itemLimit || previous.size + nextItem > sizeLimit).toBe(true);
        });
      }),
    );
  });
});
