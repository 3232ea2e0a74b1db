import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DatumRow, seriesLabels } from "./datum";
import { jsonRow, rowsJson, unlabelledRowsJson } from "./row-json";

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

describe("unlabelledRowsJson", () => {
  const value = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(-0),
    fc.constantFrom<DatumRow[2]>("NaN", "INF", "-INF"),
    fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
  );
  const row = fc.tuple(
    fc.string({ unit: "binary" }),
    fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
    value,
    fc.string({ unit: "binary" }),
    fc.option(fc.constant(seriesLabels([["host", "vm1"]], ["cpu", "usage", "float"])), { nil: undefined }),
  );

  it("reads back as the rows without their labels, whatever their ids, values and resourceIds", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (drawn) => {
        const rows = drawn.map(
          ([id, timestamp, datumValue, resourceId, labels]): DatumRow =>
            labels === undefined
              ? [id, timestamp, datumValue, resourceId]
              : [id, timestamp, datumValue, resourceId, labels],
        );
        const read = JSON.parse(unlabelledRowsJson(rows)) as DatumRow[];
        expect(read).toEqual(
          rows.map(([id, timestamp, datumValue, resourceId]) => [id, timestamp, datumValue, resourceId]),
        );
        expect(read.map((readRow) => Object.is(readRow[2], -0))).toEqual(
          rows.map((written) => Object.is(written[2], -0)),
        );
      }),
    );
  });
});
