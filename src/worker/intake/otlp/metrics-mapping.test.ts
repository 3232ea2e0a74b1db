import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MetricsMapping, maxRefusedParts } from "./metrics-mapping";
import type { DataPoint, HistogramPoint, PointContext } from "./metrics-model";

const arrivalMs = 1_800_000_000_000;
const resource: PointContext["resource"] = [["service.name", "shop"]];
const context = (metric: string, index = 0): PointContext => ({ metric, index, resource });
const base = { attributes: [["k", "v"]] as const, time: 1_000, flags: 0 };

const histogram = (fields: Partial<HistogramPoint>): HistogramPoint => ({
  kind: "histogram",
  ...base,
  count: 0,
  sum: undefined,
  min: undefined,
  max: undefined,
  bucketCounts: [],
  explicitBounds: [],
  ...fields,
});

function mapped(points: [string, DataPoint][], maxPoints = 1_000) {
  const mapping = new MetricsMapping(arrivalMs, maxPoints);
  for (const [index, [metric, point]] of points.entries()) mapping.add(context(metric, index), point);
  return mapping.result();
}

describe("MetricsMapping", () => {
  it("gives a number point as one point of its metric, labelled by its attributes, at its time or the arrival", () => {
    const { series, points } = mapped([
      ["up", { kind: "number", ...base, value: 1 }],
      ["up", { kind: "number", ...base, time: undefined, value: -2 }],
    ]);
    expect(series).toEqual([
      {
        labels: [["k", "v"]],
        primaryOnly: resource,
        origin: 0,
        points: [{ metric: "up", value: 1, timestamp: 1_000 }],
      },
      {
        labels: [["k", "v"]],
        primaryOnly: resource,
        origin: 1,
        points: [{ metric: "up", value: -2, timestamp: arrivalMs }],
      },
    ]);
    expect(points).toBe(2);
  });

  it("makes bucket counts cumulative, labelled with each upper bound and +Inf last", () => {
    const { series } = mapped([
      [
        "h",
        histogram({
          count: 10,
          bucketCounts: [1, 0, 4, 2, 3],
          explicitBounds: [-5, 1e-7, 0.25, 1e21],
          attributes: [["le", "x"]],
        }),
      ],
    ]);
    expect(series.slice(1).map(({ labels, points }) => [labels, points[0]!.metric, points[0]!.value])).toEqual([
      [[["le", "-5"]], "h.bucket", 1],
      [[["le", "1e-7"]], "h.bucket", 1],
      [[["le", "0.25"]], "h.bucket", 5],
      [[["le", "1e+21"]], "h.bucket", 7],
      [[["le", "+Inf"]], "h.bucket", 10],
    ]);
    expect(series[0]!.labels).toEqual([["le", "x"]]);
  });

  it("keeps buckets cumulative and complete for any histogram", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000), { minLength: 1, maxLength: 20 }), (bucketCounts) => {
        const explicitBounds = bucketCounts.slice(1).map((_, index) => index / 2);
        const { series, points } = mapped([["h", histogram({ count: 1, bucketCounts, explicitBounds })]]);
        const cumulative = series.slice(1).map(({ points }) => points[0]!.value);
        expect(cumulative).toEqual(
          bucketCounts.map((_, index) => bucketCounts.slice(0, index + 1).reduce((a, b) => a + b)),
        );
        expect(points).toBe(1 + bucketCounts.length);
      }),
    );
  });

  it("gives a histogram's sum, min and max only when sent", () => {
    const metrics = (point: DataPoint) =>
      mapped([["h", point]]).series.flatMap(({ points }) => points.map(({ metric }) => metric));
    expect(metrics(histogram({ count: 1 }))).toEqual(["h.count"]);
    expect(metrics(histogram({ count: 1, sum: 0, max: 0 }))).toEqual(["h.count", "h.sum", "h.max"]);
    expect(
      metrics({ kind: "exponentialHistogram", ...base, count: 2, sum: undefined, min: -1, max: undefined }),
    ).toEqual(["h.count", "h.min"]);
  });

  it("gives a summary's count, sum and quantiles", () => {
    const { series } = mapped([
      ["s", { kind: "summary", ...base, count: 3, sum: 6, quantiles: [{ quantile: 0.25, value: 1 }] }],
      ["s", { kind: "summary", ...base, count: 0, sum: 0, quantiles: [] }],
    ]);
    expect(
      series.map(({ labels, points }) => [labels, points.map(({ metric, value }) => `${metric}=${value}`)]),
    ).toEqual([
      [[["k", "v"]], ["s.count=3", "s.sum=6"]],
      [
        [
          ["k", "v"],
          ["quantile", "0.25"],
        ],
        ["s=1"],
      ],
      [[["k", "v"]], ["s.count=0", "s.sum=0"]],
    ]);
  });

  it("skips points of every kind flagged as having no recorded value, without rejecting them", () => {
    const flags = { ...base, flags: 1 | 4 };
    const result = mapped([
      ["a", { kind: "number", ...flags, value: undefined }],
      ["b", histogram({ ...flags, bucketCounts: [1] })],
      ["c", { kind: "exponentialHistogram", ...flags, count: 1, sum: 1, min: 1, max: 1 }],
      ["d", { kind: "summary", ...flags, count: 1, sum: 1, quantiles: [] }],
      ["e", { kind: "number", ...base, flags: 2, value: 3 }],
    ]);
    expect(result).toMatchObject({ skippedDataPoints: 4, rejectedDataPoints: 0, points: 1, refused: [] });
  });

  it("rejects invalid histograms", () => {
    const reason = (point: HistogramPoint) => mapped([["h", point]]).refused[0]?.message;
    expect(reason(histogram({ bucketCounts: [1, 1], explicitBounds: [Number.NaN] }))).toBe(
      'metric "h": data point 0: explicit bound 0 is NaN',
    );
    expect(reason(histogram({ bucketCounts: [1, 1, 1], explicitBounds: [1, 1] }))).toBe(
      'metric "h": data point 0: explicit bounds are not strictly increasing',
    );
    expect(reason(histogram({ bucketCounts: [1, 1], explicitBounds: [-Infinity] }))).toBe(
      'metric "h": data point 0: explicit bound 0 is -Inf',
    );
    expect(reason(histogram({ bucketCounts: [1] }))).toBeUndefined();
  });

  it("rejects a point of a metric without a name", () => {
    expect(mapped([["", { kind: "number", ...base, value: 1 }]])).toMatchObject({
      rejectedDataPoints: 1,
      points: 0,
      refused: [{ origin: 0, message: 'metric "": data point 0: the metric has no name' }],
    });
  });

  it("notes a metric without data at the place of the next point, without rejecting anything", () => {
    const mapping = new MetricsMapping(arrivalMs, 10);
    mapping.add(context("a"), { kind: "number", ...base, value: 1 });
    mapping.metricWithoutData("nothing");
    expect(mapping.result()).toMatchObject({
      rejectedDataPoints: 0,
      refused: [{ origin: 1, message: 'metric "nothing": has no data' }],
    });
  });

  it("details at most maxRefusedParts refusals, counts all, and quotes long names shortened", () => {
    const name = "n".repeat(1_000);
    const result = mapped(
      Array.from(
        { length: maxRefusedParts + 50 },
        () => [name, { kind: "malformed", reason: "bad" }] as [string, DataPoint],
      ),
    );
    expect(result.rejectedDataPoints).toBe(maxRefusedParts + 50);
    expect(result.refused).toHaveLength(maxRefusedParts);
    expect(result.refused[0]!.message).toBe(`metric "${"n".repeat(200)}…": data point 0: bad`);
  });

  it("takes points up to maxPoints, and is full with nothing of the point that goes past it", () => {
    const mapping = new MetricsMapping(arrivalMs, 4);
    mapping.add(context("g"), { kind: "number", ...base, value: 1 });
    mapping.add(context("h"), histogram({ count: 2, sum: 1, bucketCounts: [1, 1], explicitBounds: [0] }));
    expect(mapping.full).toBe(true);
    expect(mapping.result()).toMatchObject({ points: 1, tooMany: true });
    const exact = new MetricsMapping(arrivalMs, 5);
    exact.add(context("g"), { kind: "number", ...base, value: 1 });
    exact.add(context("h"), histogram({ count: 2, sum: 1, bucketCounts: [1, 1], explicitBounds: [0] }));
    expect(exact.result()).toMatchObject({ points: 5, tooMany: false });
  });
});
