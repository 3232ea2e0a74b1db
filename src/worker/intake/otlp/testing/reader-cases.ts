/*
 * Test support: requests in the OTLP JSON encoding with what reading them must give, for the tests
 * of both readers (the protobuf reader reads them through otlp-protobuf-encoder.ts).
 */
import type { LabelledPoints } from "../../common/series";
import type { OtlpMetricsResult } from "../metrics-mapping";
import specificationExample from "./opentelemetry-proto-example-metrics.json";

export const arrivalMs = 1_800_000_000_000;

type Pair = [string, string];

export const text = (value: string) => ({ stringValue: value });
export const keyValue = (key: string, value: object) => ({ key, value });

const resourceAttributes = [keyValue("service.name", text("shop")), keyValue("host.name", text("vm1"))];
const resourceLabels: Pair[] = [
  ["service.name", "shop"],
  ["host.name", "vm1"],
];

/** One resource's one scope holding `metrics`. */
export function requestOf(...metrics: object[]): { resourceMetrics: object[] } {
  return {
    resourceMetrics: [
      {
        resource: { attributes: resourceAttributes, droppedAttributesCount: 0 },
        scopeMetrics: [{ scope: { name: "io.example", version: "1.0" }, metrics }],
        schemaUrl: "https://opentelemetry.io/schemas/1.26.0",
      },
    ],
  };
}

function series(origin: number, labels: Pair[], ...points: [string, number, number?][]): LabelledPoints {
  return seriesOf(resourceLabels, origin, labels, ...points);
}

function seriesOf(
  primaryOnly: Pair[],
  origin: number,
  labels: Pair[],
  ...points: [string, number, number?][]
): LabelledPoints {
  return {
    labels,
    primaryOnly,
    origin,
    points: points.map(([metric, value, timestamp]) => ({ metric, value, timestamp: timestamp ?? arrivalMs })),
  };
}

interface ReaderCase {
  name: string;
  request: { resourceMetrics?: readonly unknown[] };
  expected: OtlpMetricsResult;
}

function result(series: LabelledPoints[], other: Partial<OtlpMetricsResult> = {}): OtlpMetricsResult {
  const points = series.reduce((total, { points }) => total + points.length, 0);
  return { series, refused: [], rejectedDataPoints: 0, skippedDataPoints: 0, points, tooMany: false, ...other };
}

const at = 1_700_000_000_000;

export const readerCases: ReaderCase[] = [
  {
    name: "gauges and sums, doubles and ints, with exact nanosecond times",
    request: requestOf(
      {
        name: "temperature",
        description: "air",
        unit: "Cel",
        gauge: {
          dataPoints: [
            { attributes: [keyValue("room", text("kitchen"))], timeUnixNano: "1700000000123456789", asDouble: 21.5 },
            { attributes: [keyValue("room", text("hall"))], timeUnixNano: "1700000000999999999", asDouble: -3 },
          ],
        },
        metadata: [keyValue("note", text("ignored"))],
      },
      {
        name: "requests",
        sum: {
          aggregationTemporality: 2,
          isMonotonic: true,
          dataPoints: [
            {
              startTimeUnixNano: "1699999999000000000",
              timeUnixNano: "18446744073709551615",
              asInt: "-42",
              exemplars: [{ timeUnixNano: "1", asDouble: 3, spanId: "0102030405060708" }],
            },
          ],
        },
      },
    ),
    expected: result([
      series(0, [["room", "kitchen"]], ["temperature", 21.5, at + 123]),
      series(1, [["room", "hall"]], ["temperature", -3, at + 999]),
      series(2, [], ["requests", -42, 18_446_744_073_709]),
    ]),
  },
  {
    name: "a histogram: statistics, and cumulative buckets labelled le",
    request: requestOf({
      name: "latency",
      histogram: {
        aggregationTemporality: 2,
        dataPoints: [
          {
            attributes: [keyValue("route", text("/a")), keyValue("le", text("sent"))],
            timeUnixNano: "1700000000000000001",
            count: "6",
            sum: 7.5,
            bucketCounts: ["1", "2", "0", "3"],
            explicitBounds: [0.5, 1, 2.5],
            min: 0.1,
            max: 9,
            exemplars: [{ asInt: "2", traceId: "5b8efff798038103d269b633813fc60c" }],
          },
          { count: "0" },
        ],
      },
    }),
    expected: result([
      series(
        0,
        [
          ["route", "/a"],
          ["le", "sent"],
        ],
        ["latency.count", 6, at],
        ["latency.sum", 7.5, at],
        ["latency.min", 0.1, at],
        ["latency.max", 9, at],
      ),
      ...(
        [
          ["0.5", 1],
          ["1", 3],
          ["2.5", 3],
          ["+Inf", 6],
        ] as const
      ).map(([bound, count]) =>
        series(
          0,
          [
            ["route", "/a"],
            ["le", bound],
          ],
          ["latency.bucket", count, at],
        ),
      ),
      series(1, [], ["latency.count", 0]),
    ]),
  },
  {
    name: "an exponential histogram: count, sum, min and max only",
    request: requestOf({
      name: "size",
      exponentialHistogram: {
        aggregationTemporality: 1,
        dataPoints: [
          {
            timeUnixNano: "1700000000000000000",
            count: "3",
            sum: 10,
            scale: -1,
            zeroCount: "1",
            positive: { offset: 1, bucketCounts: ["0", "2"] },
            negative: { offset: -2, bucketCounts: ["1"] },
            min: 0,
            max: 5,
            zeroThreshold: 0,
          },
        ],
      },
    }),
    expected: result([
      series(0, [], ["size.count", 3, at], ["size.sum", 10, at], ["size.min", 0, at], ["size.max", 5, at]),
    ]),
  },
  {
    name: "a summary: count, sum, and the quantiles labelled quantile",
    request: requestOf({
      name: "rpc",
      summary: {
        dataPoints: [
          {
            attributes: [keyValue("quantile", text("replaced"))],
            timeUnixNano: "1700000000000000000",
            count: "4",
            sum: 20,
            quantileValues: [
              { quantile: 0, value: 1 },
              { quantile: 0.5, value: 2.5 },
              { quantile: 0.99, value: 9 },
              { quantile: 1, value: 10 },
            ],
          },
        ],
      },
    }),
    expected: result([
      series(0, [["quantile", "replaced"]], ["rpc.count", 4, at], ["rpc.sum", 20, at]),
      ...(
        [
          ["0", 1],
          ["0.5", 2.5],
          ["0.99", 9],
          ["1", 10],
        ] as const
      ).map(([quantile, value]) => series(0, [["quantile", quantile]], ["rpc", value, at])),
    ]),
  },
  {
    name: "points without a time take the arrival time; points flagged without a value are skipped",
    request: requestOf({
      name: "up",
      gauge: {
        dataPoints: [
          { timeUnixNano: "0", asDouble: 1 },
          { asDouble: 2 },
          { timeUnixNano: "999999", asDouble: 3 },
          { timeUnixNano: "1700000000000000000", flags: 1 },
          { timeUnixNano: "1700000000000000000", flags: 3, asDouble: 4 },
          { timeUnixNano: "1700000000000000000", flags: 2, asDouble: 5 },
        ],
      },
    }),
    expected: result(
      [series(0, [], ["up", 1]), series(1, [], ["up", 2]), series(2, [], ["up", 3, 0]), series(5, [], ["up", 5, at])],
      { skippedDataPoints: 2 },
    ),
  },
  {
    name: "invalid points are rejected one by one, with why; the others are kept",
    request: requestOf(
      { name: "g", gauge: { dataPoints: [{ timeUnixNano: "1" }, { asDouble: 1 }] } },
      {
        name: "h",
        histogram: {
          dataPoints: [
            { count: "1", bucketCounts: ["1"], explicitBounds: [1] },
            { count: "1", bucketCounts: ["1", "0", "0"], explicitBounds: [2, 1] },
            { count: "1", explicitBounds: [1] },
            { count: "1", bucketCounts: ["1", "0"], explicitBounds: ["Infinity"] },
          ],
        },
      },
      {
        name: "s",
        summary: {
          dataPoints: [
            { quantileValues: [{ quantile: 1.5, value: 1 }] },
            {
              quantileValues: [
                { quantile: 0.5, value: 1 },
                { quantile: 0.5, value: 2 },
              ],
            },
          ],
        },
      },
      { name: "", gauge: { dataPoints: [{ asDouble: 1 }] } },
      { name: "empty", description: "no data field" },
    ),
    expected: result([series(1, [], ["g", 1])], {
      rejectedDataPoints: 8,
      refused: [
        { origin: 0, message: 'metric "g": data point 0: has no value (neither asDouble nor asInt)' },
        {
          origin: 2,
          message: 'metric "h": data point 0: has 1 bucket counts for 1 explicit bounds (must be one more)',
        },
        { origin: 3, message: 'metric "h": data point 1: explicit bounds are not strictly increasing' },
        { origin: 4, message: 'metric "h": data point 2: has explicit bounds but no bucket counts' },
        { origin: 5, message: 'metric "h": data point 3: explicit bound 0 is +Inf' },
        { origin: 6, message: 'metric "s": data point 0: quantile 1.5 is not between 0 and 1' },
        { origin: 7, message: 'metric "s": data point 1: quantile 0.5 is given twice' },
        { origin: 8, message: 'metric "": data point 0: the metric has no name' },
        { origin: 9, message: 'metric "empty": has no data' },
      ],
    }),
  },
  {
    name: "attribute values of every kind as label text",
    request: requestOf({
      name: "a",
      gauge: {
        dataPoints: [
          {
            asDouble: 0,
            attributes: [
              keyValue("string", text("x y")),
              keyValue("true", { boolValue: true }),
              keyValue("false", { boolValue: false }),
              keyValue("int", { intValue: "-7" }),
              keyValue("big", { intValue: "9007199254740992" }),
              keyValue("double", { doubleValue: 0.1 }),
              keyValue("large", { doubleValue: 1e21 }),
              keyValue("nan", { doubleValue: "NaN" }),
              keyValue("infinity", { doubleValue: "Infinity" }),
              keyValue("bytes", { bytesValue: "AAEC/w==" }),
              keyValue("array", {
                arrayValue: { values: [text("a"), { intValue: "1" }, { boolValue: false }, {}, { doubleValue: 2.5 }] },
              }),
              keyValue("kvlist", {
                kvlistValue: {
                  values: [
                    keyValue("k", text('"v"')),
                    keyValue("n", { doubleValue: "-Infinity" }),
                    keyValue("nested", { arrayValue: { values: [{ arrayValue: {} }] } }),
                  ],
                },
              }),
              keyValue("none", {}),
              { key: "no value" },
            ],
          },
        ],
      },
    }),
    expected: result([
      series(
        0,
        [
          ["string", "x y"],
          ["true", "true"],
          ["false", "false"],
          ["int", "-7"],
          ["big", "9007199254740992"],
          ["double", "0.1"],
          ["large", "1e+21"],
          ["nan", "NaN"],
          ["infinity", "+Inf"],
          ["bytes", "AAEC/w=="],
          ["array", '["a",1,false,null,2.5]'],
          ["kvlist", '{"k":"\\"v\\"","n":"-Inf","nested":[[]]}'],
          ["none", ""],
          ["no value", ""],
        ],
        ["a", 0],
      ),
    ]),
  },
  {
    name: "several resources and scopes, each resource's attributes with its points",
    request: {
      resourceMetrics: [
        {
          resource: { attributes: [keyValue("service.instance.id", text("i-1")), keyValue("count", { intValue: 3 })] },
          scopeMetrics: [
            { metrics: [{ name: "m", gauge: { dataPoints: [{ asDouble: 1 }] } }] },
            { scope: { name: "other" }, metrics: [{ name: "n", gauge: { dataPoints: [{ asDouble: 2 }] } }] },
          ],
        },
        { scopeMetrics: [{ metrics: [{ name: "m", sum: { dataPoints: [{ asInt: 3 }] } }] }] },
        {},
      ],
    },
    expected: result([
      {
        labels: [],
        primaryOnly: [
          ["service.instance.id", "i-1"],
          ["count", "3"],
        ],
        origin: 0,
        points: [{ metric: "m", value: 1, timestamp: arrivalMs }],
      },
      {
        labels: [],
        primaryOnly: [
          ["service.instance.id", "i-1"],
          ["count", "3"],
        ],
        origin: 1,
        points: [{ metric: "n", value: 2, timestamp: arrivalMs }],
      },
      { labels: [], primaryOnly: [], origin: 2, points: [{ metric: "m", value: 3, timestamp: arrivalMs }] },
    ]),
  },
  {
    name: "the example request of opentelemetry-proto",
    request: specificationExample,
    expected: (() => {
      const time = 1_544_712_660_300;
      const example = (origin: number, attribute: string, ...points: [string, number, number?][]) =>
        seriesOf([["service.name", "my.service"]], origin, [[attribute, "some value"]], ...points);
      const histogram = (bound: string, count: number) =>
        seriesOf(
          [["service.name", "my.service"]],
          2,
          [
            ["my.histogram.attr", "some value"],
            ["le", bound],
          ],
          ["my.histogram.bucket", count, time],
        );
      return result([
        example(0, "my.counter.attr", ["my.counter", 5, time]),
        example(1, "my.gauge.attr", ["my.gauge", 10, time]),
        example(
          2,
          "my.histogram.attr",
          ["my.histogram.count", 2, time],
          ["my.histogram.sum", 2, time],
          ["my.histogram.min", 0, time],
          ["my.histogram.max", 2, time],
        ),
        histogram("1", 1),
        histogram("+Inf", 2),
        example(
          3,
          "my.exponential.histogram.attr",
          ["my.exponential.histogram.count", 3, time],
          ["my.exponential.histogram.sum", 10, time],
          ["my.exponential.histogram.min", 0, time],
          ["my.exponential.histogram.max", 5, time],
        ),
      ]);
    })(),
  },
  {
    name: "an empty request",
    request: {},
    expected: result([]),
  },
];
