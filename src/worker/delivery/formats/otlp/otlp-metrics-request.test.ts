import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DatumRow, seriesLabels } from "../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { otlpMetricsRequest, otlpScopeName, timeUnixNano } from "./otlp-metrics-request";
import {
  expectedPoints,
  labelChangesArbitrary,
  lastMillisecond,
  past2To53Nanoseconds,
  pointText,
  runsArbitrary,
} from "./testing/otlp-output-cases";

const at = 1_700_000_000_000;

const fromResource = seriesLabels(
  [
    ["cpu", "0"],
    ["service.instance.id", "i-1"],
  ],
  undefined,
  "service.instance.id",
);
const otherInstance = seriesLabels([["service.instance.id", "i-2"]], undefined, "service.instance.id");
const fromPoint = seriesLabels([
  ["cpu", "1"],
  ["host.name", "vm1"],
]);

describe("timeUnixNano", () => {
  it("is the milliseconds times a million, exactly", () => {
    expect(timeUnixNano(at + 1)).toBe(1_700_000_000_001_000_000n);
    expect(timeUnixNano(past2To53Nanoseconds)).toBe(9_007_199_255_000_000n);
    expect(timeUnixNano(lastMillisecond)).toBe(18_446_744_073_709_000_000n);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: lastMillisecond }), (ms) => {
        expect(timeUnixNano(ms)).toBe(BigInt(ms) * 1_000_000n);
      }),
    );
  });

  it("writes the epoch as its first nanosecond: 0 is no time in OTLP", () => {
    expect(timeUnixNano(0)).toBe(1n);
  });

  it("has none for times a fixed64 of nanoseconds cannot hold", () => {
    for (const ms of [-1, Number.MIN_SAFE_INTEGER, lastMillisecond + 1, Number.MAX_SAFE_INTEGER, 0.5]) {
      expect(timeUnixNano(ms), String(ms)).toBeUndefined();
    }
  });
});

describe("otlpMetricsRequest", () => {
  it("puts a resource attribute back on the resource, one ResourceMetrics per value, and a Gauge per metric in each", () => {
    const runs: MetricRun[] = [
      [
        "cpu",
        [
          ["a", at, 0.5, "i-1,cpu=0", fromResource],
          ["b", at, 1, "vm1,cpu=1", fromPoint],
          ["c", at + 1, 2, "i-2", otherInstance],
          ["d", at + 2, 3, "i-1,cpu=0", fromResource],
        ],
      ],
      ["mem", [["e", at, 4, "i-1,cpu=0", fromResource]]],
    ];
    expect(otlpMetricsRequest(runs)).toEqual({
      resourceMetrics: [
        {
          resource: [["service.instance.id", "i-1"]],
          scope: otlpScopeName,
          metrics: [
            {
              name: "cpu",
              dataPoints: [
                { attributes: [["cpu", "0"]], timeUnixNano: 1_700_000_000_000_000_000n, asDouble: 0.5 },
                { attributes: [["cpu", "0"]], timeUnixNano: 1_700_000_000_002_000_000n, asDouble: 3 },
              ],
            },
            {
              name: "mem",
              dataPoints: [{ attributes: [["cpu", "0"]], timeUnixNano: 1_700_000_000_000_000_000n, asDouble: 4 }],
            },
          ],
        },
        {
          resource: [],
          scope: otlpScopeName,
          metrics: [
            {
              name: "cpu",
              dataPoints: [{ attributes: fromPoint.pairs, timeUnixNano: 1_700_000_000_000_000_000n, asDouble: 1 }],
            },
          ],
        },
        {
          resource: [["service.instance.id", "i-2"]],
          scope: otlpScopeName,
          metrics: [
            { name: "cpu", dataPoints: [{ attributes: [], timeUnixNano: 1_700_000_000_001_000_000n, asDouble: 2 }] },
          ],
        },
      ],
    });
  });

  it("names the resource of data without labels in the attribute resource", () => {
    const [resourceMetrics] = otlpMetricsRequest([["cpu", [["a", at, 1, "frontend1"]]]]).resourceMetrics;
    expect(resourceMetrics!.resource).toEqual([]);
    expect(resourceMetrics!.metrics[0]!.dataPoints[0]!.attributes).toEqual([["resource", "frontend1"]]);
  });

  it("treats data with an empty label set as labelled: no attribute at all", () => {
    const [resourceMetrics] = otlpMetricsRequest([["cpu", [["a", at, 1, "-", seriesLabels([])]]]]).resourceMetrics;
    expect(resourceMetrics!.metrics[0]!.dataPoints[0]!.attributes).toEqual([]);
  });

  it("applies the observer's changes before placing labels: to the resource attribute and to resource too", () => {
    const changes = { add: { env: "prod", cpu: "all" }, drop: ["resource"] };
    const request = otlpMetricsRequest(
      [
        [
          "cpu",
          [
            ["a", at, 1, "i-1,cpu=0", fromResource],
            ["b", at, 2, "frontend1"],
          ],
        ],
      ],
      changes,
    );
    expect(
      request.resourceMetrics.map(({ resource, metrics }) => [resource, metrics[0]!.dataPoints[0]!.attributes]),
    ).toEqual([
      [
        [["service.instance.id", "i-1"]],
        [
          ["cpu", "all"],
          ["env", "prod"],
        ],
      ],
      [
        [],
        [
          ["cpu", "all"],
          ["env", "prod"],
        ],
      ],
    ]);
    const resourceOf = (changes: LabelChanges) =>
      otlpMetricsRequest([["cpu", [["a", at, 1, "i-1,cpu=0", fromResource]]]], changes).resourceMetrics[0]!.resource;
    expect(resourceOf({ add: { "service.instance.id": "i-9" } })).toEqual([["service.instance.id", "i-9"]]);
    expect(resourceOf({ drop: ["service.instance.id"] })).toEqual([]);
  });

  it("gives the points of one label set one attributes array", () => {
    const [resourceMetrics] = otlpMetricsRequest([
      [
        "cpu",
        [
          ["a", at, 1, "vm1,cpu=1", fromPoint],
          ["b", at + 1, 2, "vm1,cpu=1", fromPoint],
        ],
      ],
    ]).resourceMetrics;
    const [first, second] = resourceMetrics!.metrics[0]!.dataPoints;
    expect(first!.attributes).toBe(second!.attributes);
  });

  it("reads non-finite values from their xsd:double spelling", () => {
    const rows: DatumRow[] = [
      ["a", at, "NaN", "r"],
      ["b", at, "INF", "r"],
      ["c", at, "-INF", "r"],
      ["d", at, -0, "r"],
    ];
    const points = otlpMetricsRequest([["m", rows]]).resourceMetrics[0]!.metrics[0]!.dataPoints;
    expect(points.map(({ asDouble }) => asDouble)).toEqual([Number.NaN, Infinity, -Infinity, -0]);
  });

  it("leaves out data whose time OTLP cannot hold, and has no ResourceMetrics without data", () => {
    const rows: DatumRow[] = [
      ["a", -1, 1, "r"],
      ["b", lastMillisecond + 1, 1, "r"],
    ];
    expect(otlpMetricsRequest([["m", rows]])).toEqual({ resourceMetrics: [] });
    expect(otlpMetricsRequest([])).toEqual({ resourceMetrics: [] });
  });

  it("holds every datum it can, as API.md says, and each name, resource and metric once", () => {
    fc.assert(
      fc.property(runsArbitrary, labelChangesArbitrary, (runs, changes) => {
        const request = otlpMetricsRequest(runs, changes);
        const points = request.resourceMetrics.flatMap(({ resource, metrics }) =>
          metrics.flatMap(({ name, dataPoints }) =>
            dataPoints.map(({ attributes, timeUnixNano: nanos, asDouble }) =>
              // The epoch's first nanosecond is its millisecond.
              pointText(name, attributes, resource, Number(nanos / 1_000_000n), asDouble),
            ),
          ),
        );
        expect(points.sort()).toEqual(expectedPoints(runs, changes));
        const resources = request.resourceMetrics.map(({ resource }) => JSON.stringify(resource));
        expect(new Set(resources).size).toBe(resources.length);
        for (const { resource, metrics } of request.resourceMetrics) {
          expect(resource.length).toBeLessThanOrEqual(1);
          expect(new Set(metrics.map(({ name }) => name)).size).toBe(metrics.length);
          expect(metrics.every(({ dataPoints }) => dataPoints.length > 0)).toBe(true);
        }
      }),
    );
  });
});
