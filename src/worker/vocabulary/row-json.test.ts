import { describe, expect, it } from "vitest";
import { type DatumRow, seriesLabels } from "./datum";
import { jsonRow, rowsJson } from "./row-json";

describe("rowsJson", () => {
  const labels = seriesLabels(
    [
      ["cpu", "cpu0"],
      ["host", "vm1"],
    ],
    ["cpu", "usage_idle", "float"],
  );
  const rows: DatumRow[] = [
    ["a", 1000, -0, "vm1"],
    ["b", 2000, -0, "vm1,cpu=cpu0", labels],
    ["c", 3000, "NaN", "vm1,cpu=cpu0", labels],
    ["d", 4000, 0.5, "-", seriesLabels([], undefined)],
  ];

  it("reads back as the same rows: negative zero with its sign, labels with their parts", () => {
    const read = JSON.parse(rowsJson(rows)) as DatumRow[];
    expect(read).toEqual(rows);
    expect(read.map((row) => Object.is(row[2], -0))).toEqual([true, true, false, false]);
    expect(read[1]![4]).toEqual({
      pairs: [
        ["cpu", "cpu0"],
        ["host", "vm1"],
      ],
      line: ["cpu", "usage_idle", "float"],
    });
  });

  it("writes a resource attribute, and nothing of parts a label set does not have", () => {
    const otlp: DatumRow = ["e", 1, 2, "vm1", seriesLabels([["host.name", "vm1"]], undefined, "host.name")];
    expect(rowsJson([otlp])).toBe('[["e",1,2,"vm1",{"pairs":[["host.name","vm1"]],"resourceAttribute":"host.name"}]]');
  });

  it("leaves a row without negative zero as it is", () => {
    expect(jsonRow(rows[2]!)).toBe(rows[2]);
    expect(jsonRow(rows[1]!)).not.toBe(rows[1]);
  });
});
