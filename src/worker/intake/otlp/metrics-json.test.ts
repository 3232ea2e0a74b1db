import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMetricsJson } from "./metrics-json";
import { maxValueNesting } from "./metrics-model";
import { OtlpBodyError } from "./otlp-body-error";
import { arrivalMs, keyValue, readerCases, requestOf, text } from "./testing/reader-cases";
import { expectedSeries, recordingsArbitrary, sdkExport } from "./testing/sdk-export";

const read = (body: unknown, maxPoints = 1_000) => readMetricsJson(body, arrivalMs, maxPoints);

const gauge = (...dataPoints: unknown[]) => requestOf({ name: "m", gauge: { dataPoints } });

/** An attribute value `depth` arrays deep. */
function nested(depth: number): object {
  let value: object = text("x");
  for (let level = 0; level < depth; level++) value = { arrayValue: { values: [value] } };
  return value;
}

describe("readMetricsJson", () => {
  it.each(readerCases)("reads $name", ({ request, expected }) => {
    expect(read(JSON.parse(JSON.stringify(request)))).toEqual(expected);
  });

  it("reads the proto field names as well as the JSON names", () => {
    const request = {
      resource_metrics: [
        {
          resource: { attributes: [{ key: "host.name", value: { string_value: "vm1" } }] },
          scope_metrics: [
            {
              metrics: [
                {
                  name: "h",
                  histogram: {
                    data_points: [
                      {
                        time_unix_nano: "1700000000000000000",
                        count: "1",
                        bucket_counts: ["0", "1"],
                        explicit_bounds: [1],
                        attributes: [{ key: "k", value: { int_value: "1" } }],
                      },
                    ],
                  },
                },
                { name: "e", exponential_histogram: { data_points: [{ count: 2 }] } },
                { name: "s", summary: { data_points: [{ quantile_values: [{ quantile: 1, value: 3 }] }] } },
                { name: "g", gauge: { data_points: [{ as_double: 1.5 }, { as_int: "2" }] } },
              ],
            },
          ],
        },
      ],
    };
    const { series, rejectedDataPoints } = read(request);
    expect(rejectedDataPoints).toBe(0);
    expect(
      series.map(({ labels, points }) => [labels, points.map(({ metric, value }) => `${metric}=${value}`)]),
    ).toEqual([
      [[["k", "1"]], ["h.count=1"]],
      [
        [
          ["k", "1"],
          ["le", "1"],
        ],
        ["h.bucket=0"],
      ],
      [
        [
          ["k", "1"],
          ["le", "+Inf"],
        ],
        ["h.bucket=1"],
      ],
      [[], ["e.count=2"]],
      [[], ["s.count=0", "s.sum=0"]],
      [[["quantile", "1"]], ["s=3"]],
      [[], ["g=1.5"]],
      [[], ["g=2"]],
    ]);
    expect(series[0]!.primaryOnly).toEqual([["host.name", "vm1"]]);
    expect(series[0]!.points[0]!.timestamp).toBe(1_700_000_000_000);
  });

  it("takes 64-bit integers as numbers too, doubles as strings, enums by name, and null as absent", () => {
    const request = requestOf(
      {
        name: "c",
        sum: {
          aggregationTemporality: "AGGREGATION_TEMPORALITY_CUMULATIVE",
          dataPoints: [
            { timeUnixNano: 1_700_000_000_123_000_000, asInt: 42, flags: null, attributes: null },
            { timeUnixNano: null, asDouble: "NaN", asInt: null },
            { asDouble: "-Infinity" },
            { asDouble: "1.5e3" },
          ],
        },
        histogram: null,
      },
      { name: "h", histogram: { dataPoints: [{ count: 3, bucketCounts: [1, "2"], explicitBounds: ["0.5"] }] } },
    );
    const { series } = read(request);
    expect(series.flatMap(({ points }) => points)).toEqual([
      { metric: "c", value: 42, timestamp: 1_700_000_000_123 },
      { metric: "c", value: Number.NaN, timestamp: arrivalMs },
      { metric: "c", value: -Infinity, timestamp: arrivalMs },
      { metric: "c", value: 1_500, timestamp: arrivalMs },
      { metric: "h.count", value: 3, timestamp: arrivalMs },
      { metric: "h.bucket", value: 1, timestamp: arrivalMs },
      { metric: "h.bucket", value: 3, timestamp: arrivalMs },
    ]);
  });

  it("ignores fields it does not know, at every level", () => {
    const request = {
      unknown: [1],
      resourceMetrics: [
        {
          extra: {},
          resource: { attributes: [{ key: "k", value: { stringValue: "v", other: 1 }, more: true }], entityRefs: [] },
          scopeMetrics: [
            { future: "x", metrics: [{ name: "m", gauge: { dataPoints: [{ asDouble: 1, newField: [] }] } }] },
          ],
        },
      ],
    };
    expect(read(request).points).toBe(1);
  });

  it("converts any time exactly to whole milliseconds", () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 2n ** 64n - 1n), (nanos) => {
        const [timestamp] = read(gauge({ timeUnixNano: String(nanos), asDouble: 1 })).series.map(
          ({ points }) => points[0]!.timestamp,
        );
        expect(timestamp).toBe(nanos === 0n ? arrivalMs : Number(nanos / 1_000_000n));
      }),
    );
    expect(read(gauge({ timeUnixNano: "1700000000123456789", asDouble: 1 })).series[0]!.points[0]!.timestamp).toBe(
      1_700_000_000_123,
    );
  });

  it("keeps integer attribute values exact when sent as strings", () => {
    const [series] = read(
      gauge({ asDouble: 1, attributes: [keyValue("id", { intValue: "-9223372036854775807" })] }),
    ).series;
    expect(series!.labels).toEqual([["id", "-9223372036854775807"]]);
  });

  it("reads base64 in either alphabet, with or without padding", () => {
    const bytes = (value: string) => read(gauge({ asDouble: 1, attributes: [keyValue("b", { bytesValue: value })] }));
    expect(bytes("-_8").series[0]!.labels).toEqual([["b", "+/8="]]);
    expect(bytes("+/8=").series[0]!.labels).toEqual([["b", "+/8="]]);
  });

  it.each([
    ["an array", [], "the body: must be an object"],
    ["a string", "{}", "the body: must be an object"],
    ["null", null, "the body: must be an object"],
    ["resourceMetrics that are no list", { resourceMetrics: {} }, "resourceMetrics: must be an array"],
    ["a resourceMetrics that is no object", { resourceMetrics: [1] }, "resourceMetrics[0]: must be an object"],
    [
      "scopeMetrics that are no list",
      { resourceMetrics: [{ scopeMetrics: "x" }] },
      "resourceMetrics[0].scopeMetrics: must be an array",
    ],
    [
      "a metric that is no object",
      { resourceMetrics: [{ scopeMetrics: [{ metrics: [null] }] }] },
      "resourceMetrics[0].scopeMetrics[0].metrics[0]: must be an object",
    ],
    ["a name that is no string", requestOf({ name: 5 }), "metrics[0].name: must be a string"],
    ["a gauge that is no object", requestOf({ name: "m", gauge: [] }), "metrics[0].gauge: must be an object"],
    [
      "data points that are no list",
      requestOf({ name: "m", sum: { dataPoints: {} } }),
      "sum.dataPoints: must be an array",
    ],
    [
      "a metric with two kinds of data",
      requestOf({ name: "m", gauge: { dataPoints: [] }, sum: { dataPoints: [] } }),
      "metrics[0]: sets both gauge and sum",
    ],
    [
      "a resource attribute of a bad value",
      { resourceMetrics: [{ resource: { attributes: [keyValue("k", { intValue: "x" })] } }] },
      "resourceMetrics[0].resource.attributes[0].value.intValue: must be an integer",
    ],
    [
      "a resource attribute nested too deeply",
      { resourceMetrics: [{ resource: { attributes: [keyValue("k", nested(maxValueNesting + 1))] } }] },
      `nest more than ${maxValueNesting} levels deep`,
    ],
  ])("refuses a body that is not a request: %s", (_, body, message) => {
    expect(() => read(body)).toThrow(OtlpBodyError);
    expect(() => read(body)).toThrow(message);
  });

  it("rejects malformed data points one by one, saying where and why", () => {
    const points: [unknown, string][] = [
      [null, "the point: must be an object"],
      [{ asDouble: "abc" }, 'asDouble: must be a number, "NaN", "Infinity" or "-Infinity"'],
      [{ asDouble: true }, 'asDouble: must be a number, "NaN", "Infinity" or "-Infinity"'],
      [{ asInt: 1.5 }, "asInt: must be an integer, as a number or a decimal string"],
      [{ asInt: "9223372036854775808" }, "asInt: must be between -9223372036854775808 and 9223372036854775807"],
      [{ asDouble: 1, asInt: 1 }, "the point: sets both asDouble and asInt"],
      [{ asDouble: 1, timeUnixNano: "-1" }, "timeUnixNano: must be between 0 and 18446744073709551615"],
      [
        { asDouble: 1, timeUnixNano: "18446744073709551616" },
        "timeUnixNano: must be between 0 and 18446744073709551615",
      ],
      [{ asDouble: 1, timeUnixNano: "1e18" }, "timeUnixNano: must be an integer, as a number or a decimal string"],
      [{ asDouble: 1, flags: -1 }, "flags: must be between 0 and 4294967295"],
      [{ asDouble: 1, attributes: {} }, "attributes: must be an array"],
      [{ asDouble: 1, attributes: [{ key: 1 }] }, "attributes[0].key: must be a string"],
      [
        { asDouble: 1, attributes: [keyValue("k", { boolValue: "true" })] },
        "attributes[0].value.boolValue: must be true or false",
      ],
      [
        { asDouble: 1, attributes: [keyValue("k", { bytesValue: "!" })] },
        "attributes[0].value.bytesValue: must be a base64 string",
      ],
      [
        { asDouble: 1, attributes: [keyValue("k", { stringValue: "a", intValue: "1" })] },
        "attributes[0].value: sets both stringValue and intValue",
      ],
      [
        { asDouble: 1, attributes: [keyValue("k", { arrayValue: { values: {} } })] },
        "attributes[0].value.arrayValue.values: must be an array",
      ],
      [
        { asDouble: 1, attributes: [keyValue("k", nested(maxValueNesting + 1))] },
        `attributes[0].value: attribute values nest more than ${maxValueNesting} levels deep`,
      ],
    ];
    const result = read(gauge(...points.map(([point]) => point), { asDouble: 7 }));
    expect(result.refused).toEqual(
      points.map(([, reason], index) => ({ origin: index, message: `metric "m": data point ${index}: ${reason}` })),
    );
    expect(result.rejectedDataPoints).toBe(points.length);
    expect(result.series.map(({ origin, points }) => [origin, points[0]!.value])).toEqual([[points.length, 7]]);
  });

  it("rejects malformed fields of histograms and summaries", () => {
    const request = requestOf(
      {
        name: "h",
        histogram: {
          dataPoints: [
            { count: "x" },
            { count: "1", bucketCounts: "1" },
            { count: "1", bucketCounts: ["1", "-1"], explicitBounds: [1] },
            { count: "1", bucketCounts: ["1", "0"], explicitBounds: [null] },
            { count: "1", sum: {} },
          ],
        },
      },
      { name: "s", summary: { dataPoints: [{ quantileValues: [5] }, { quantileValues: [{ value: "high" }] }] } },
      { name: "e", exponentialHistogram: { dataPoints: [{ min: [] }] } },
    );
    expect(read(request).refused.map(({ message }) => message)).toEqual([
      'metric "h": data point 0: count: must be an integer, as a number or a decimal string',
      'metric "h": data point 1: bucketCounts: must be an array',
      'metric "h": data point 2: bucketCounts[1]: must be between 0 and 18446744073709551615',
      'metric "h": data point 3: explicitBounds[0]: must be a number, "NaN", "Infinity" or "-Infinity"',
      'metric "h": data point 4: sum: must be a number, "NaN", "Infinity" or "-Infinity"',
      'metric "s": data point 0: quantileValues[0]: must be an object',
      'metric "s": data point 1: quantileValues[0].value: must be a number, "NaN", "Infinity" or "-Infinity"',
      'metric "e": data point 0: min: must be a number, "NaN", "Infinity" or "-Infinity"',
    ]);
  });

  it("accepts attribute values nested up to the limit", () => {
    const [series] = read(gauge({ asDouble: 1, attributes: [keyValue("k", nested(maxValueNesting))] })).series;
    expect(series!.labels[0]![1]).toBe(`${"[".repeat(maxValueNesting)}"x"${"]".repeat(maxValueNesting)}`);
  });

  it("stops at maxPoints, and says the request holds too many", () => {
    const request = requestOf(
      { name: "g", gauge: { dataPoints: [{ asDouble: 1 }, { asDouble: 2 }] } },
      { name: "h", histogram: { dataPoints: [{ count: "1", sum: 1, bucketCounts: ["1", "0"], explicitBounds: [1] }] } },
    );
    expect(read(request, 6)).toMatchObject({ points: 6, tooMany: false });
    expect(read(request, 5)).toMatchObject({ points: 2, tooMany: true });
    expect(read(request, 1)).toMatchObject({ points: 1, tooMany: true });
  });

  it("gives the values the OpenTelemetry SDK exported", async () => {
    await fc.assert(
      fc.asyncProperty(recordingsArbitrary, async (recordings) => {
        const { resourceMetrics, json } = await sdkExport(recordings, { "service.name": "shop", "host.name": "vm1" });
        const result = read(json);
        expect(result.series).toEqual(expectedSeries(resourceMetrics));
        expect(result.rejectedDataPoints).toBe(0);
      }),
      { numRuns: 50 },
    );
  });
});
