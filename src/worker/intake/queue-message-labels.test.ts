import { describe, expect, it } from "vitest";
import { type LineField, seriesLabels } from "../vocabulary/datum";
import { LabelTables, lineFieldTypeCode, lineFieldTypes, none } from "./queue-message-labels";

describe("LabelTables", () => {
  const pairs = [
    ["cpu", "cpu0"],
    ["host", "vm1"],
  ] as const;
  const usage: LineField = ["cpu", "usage", "float"];
  const count: LineField = ["cpu", "count", "integer"];

  it("tables each pair list, line and text once, and a list's set again for its next row of the same line", () => {
    const tables = new LabelTables();
    const otherPairs = [["host", "vm2"]] as const;
    const rows = [
      [seriesLabels(pairs), 0],
      [seriesLabels(otherPairs), 1],
      // Rows without a line share their list's set, whatever came between.
      [seriesLabels(pairs), 0],
      [seriesLabels(pairs, usage), 0],
      // Another object of the same pairs and line, next: the same set.
      [seriesLabels(pairs, usage), 0],
      [seriesLabels(pairs, count), 0],
      [seriesLabels(otherPairs, usage), 1],
      // A line-protocol field met again after others: a set of its own, read the same.
      [seriesLabels(pairs, usage), 0],
    ] as const;
    expect(rows.map(([labels, resource]) => tables.add(labels, resource))).toEqual([0, 1, 0, 2, 2, 3, 4, 5]);
    expect(tables.sets).toEqual([0, none, 1, none, 0, 0, 0, 1, 1, 0, 0, 0]);
    expect(tables.pairLists).toEqual([2, none, 1, none]);
    expect(tables.texts).toEqual(["cpu", "cpu0", "host", "vm1", "vm2", "usage", "count"]);
    expect(tables.pairs).toEqual([0, 1, 2, 3, 2, 4]);
    expect(tables.lines).toEqual([0, 5, 0, 0, 6, 1]);
    expect([tables.setCount, tables.pairListCount, tables.pairCount, tables.lineCount]).toEqual([6, 2, 3, 2]);
  });

  it("knows pairs by their array, whichever resource's rows have them", () => {
    const tables = new LabelTables();
    const samePairsAgain = [...pairs];
    expect(tables.add(seriesLabels(pairs), 0)).toBe(0);
    expect(tables.add(seriesLabels(samePairsAgain), 0)).toBe(1);
    expect(tables.add(seriesLabels(pairs), 1)).toBe(0);
    expect(tables.add(seriesLabels(pairs), 0)).toBe(0);
    expect(tables.pairListCount).toBe(2);
    expect(tables.texts).toHaveLength(4);
  });

  it("counts the bytes of what it holds: 8 a set, a list and a pair, 12 a line, 4 a text besides its characters", () => {
    const tables = new LabelTables();
    tables.add(seriesLabels(pairs, usage), 0);
    const bytes = 8 + (8 + 2 * 8) + 12 + 4 * 5;
    expect(tables.fixedBytes).toBe(bytes);
    expect(tables.textUnits).toBe("cpucpu0hostvm1usage".length);
    tables.add(seriesLabels(pairs, usage), 0);
    expect(tables.fixedBytes).toBe(bytes);
    tables.add(seriesLabels(pairs), 0);
    expect(tables.fixedBytes).toBe(bytes + 8);
    expect(tables.textUnits).toBe("cpucpu0hostvm1usage".length);
  });

  it("takes back its last addition, whatever it added", () => {
    const tables = new LabelTables();
    tables.add(seriesLabels(pairs, usage), 0);
    const written = () => {
      const { sets, pairLists, pairs: pairTexts, lines, texts, fixedBytes, textUnits } = tables;
      return JSON.stringify({ sets, pairLists, pairTexts, lines, texts, fixedBytes, textUnits });
    };
    const kept = written();
    for (const labels of [
      seriesLabels([["zone", "z"]], ["mem", "used", "unsigned"], "zone"),
      seriesLabels(pairs, count),
      seriesLabels(pairs, usage),
    ]) {
      tables.add(labels, 1);
      tables.undo();
      expect(written()).toBe(kept);
    }
    // What was taken back is made again when it comes again, and what was kept found.
    expect(tables.add(seriesLabels([["zone", "z"]], ["mem", "used", "unsigned"], "zone"), 1)).toBe(1);
    expect(tables.add(seriesLabels(pairs, usage), 0)).toBe(0);
    expect(tables.texts).toEqual(["cpu", "cpu0", "host", "vm1", "usage", "zone", "z", "mem", "used"]);
  });

  it("knows a resource attribute by its pair's place, and keeps lists of the same pairs apart when it differs", () => {
    const tables = new LabelTables();
    tables.add(seriesLabels(pairs, undefined, "host"), 0);
    tables.add(seriesLabels(pairs), 0);
    expect(tables.pairLists).toEqual([2, 1, 2, none]);
    expect(() => new LabelTables().add(seriesLabels(pairs, undefined, "zone"), 0)).toThrow(
      'a label set\'s resource attribute "zone" is none of its pairs',
    );
  });
});

describe("lineFieldTypeCode", () => {
  it("is the type's place in lineFieldTypes, and refuses what is no type", () => {
    expect(lineFieldTypes.map(lineFieldTypeCode)).toEqual([0, 1, 2, 3]);
    expect(() => lineFieldTypeCode("string" as never)).toThrow('"string" is no line-protocol field type');
  });
});
