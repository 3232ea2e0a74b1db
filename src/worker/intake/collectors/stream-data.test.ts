import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readStreamData, streamValue } from "./stream-data";

const limits = { maxData: 3, maxMetricNameLength: 16 };

describe("streamValue", () => {
  it.each([
    [1.5, 1.5],
    [true, 1],
    [false, 0],
    ["2", 2],
    [" -3.5e2 ", -350],
    ["1.0d", 1],
    ["NaN", Number.NaN],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["up", undefined],
    ["", undefined],
    ["0x10", undefined],
  ] as const)("%j → %s", (sent, value) => {
    expect(streamValue(sent)).toBe(value);
  });

  it("reads every finite number written as a string back as itself", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(streamValue(String(value))).toBe(value === 0 ? 0 : value);
      }),
    );
  });
});

describe("readStreamData", () => {
  it("stamps each datum with the arrival time and an id of its own", () => {
    const reading = readStreamData(
      [
        { resourceId: "r1", metric: "m", value: 1 },
        { resourceId: "r1", metric: "m", value: "on" },
        { resourceId: "r1", metric: "m", value: "2" },
      ],
      1_000,
      "req",
      limits,
    );
    expect(reading).toEqual({
      ok: true,
      skipped: 1,
      data: [
        { id: "req-0", metric: "m", resourceId: "r1", value: 1, timestamp: 1_000 },
        { id: "req-2", metric: "m", resourceId: "r1", value: 2, timestamp: 1_000 },
      ],
    });
  });

  it("refuses the whole body for one element of another shape, pointing at it", () => {
    const reading = readStreamData(
      [
        { resourceId: "r1", metric: "m", value: 1 },
        { resourceId: "", metric: "a/b", value: null },
      ],
      0,
      "req",
      limits,
    );
    expect(reading.ok).toBe(false);
    expect("problems" in reading && reading.problems.map((problem) => problem.path)).toEqual([
      "/1/resourceId",
      "/1/metric",
      "/1/value",
    ]);
  });

  it("refuses what is not an array", () => {
    expect(readStreamData({ resourceId: "r1" }, 0, "req", limits)).toEqual({
      ok: false,
      problems: [{ path: "", message: "Must be an array of data." }],
    });
  });

  it("counts a body over the data limit", () => {
    expect(readStreamData([1, 2, 3, 4], 0, "req", limits)).toEqual({ ok: false, tooMany: 4 });
  });
});
