import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxValueNesting } from "./metrics-model";
import { readMetricsProtobuf } from "./metrics-protobuf";
import { OtlpBodyError } from "./otlp-body-error";
import { encodeMessage, encodeRequest, varint } from "./testing/otlp-protobuf-encoder";
import { arrivalMs, keyValue, readerCases, requestOf, text } from "./testing/reader-cases";
import { expectedSeries, recordingsArbitrary, sdkExport } from "./testing/sdk-export";

const read = (body: Uint8Array, maxPoints = 1_000) => readMetricsProtobuf(body, arrivalMs, maxPoints);

const concat = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((part) => Array.from(part)));

/** A field of `number` with wire type `type` and the bytes that follow its tag. */
const rawField = (number: number, type: number, ...bytes: number[]) => [...varint(BigInt(number * 8 + type)), ...bytes];

/** Fields of every wire type at numbers no message of the request uses. */
const unknownFields = concat(
  rawField(99, 0, 0x96, 0x01),
  rawField(98, 1, 1, 2, 3, 4, 5, 6, 7, 8),
  rawField(97, 2, 2, 0x61, 0x62),
  rawField(96, 5, 1, 2, 3, 4),
);

/** A body with everything: every kind of metric, attributes of every kind, exemplars. */
const richBody = encodeRequest(readerCases.find(({ name }) => name.startsWith("attribute values"))!.request);

/** An attribute value `depth` arrays deep. */
function nested(depth: number): object {
  let value: object = text("x");
  for (let level = 0; level < depth; level++) value = { arrayValue: { values: [value] } };
  return value;
}

const values = (body: Uint8Array) =>
  read(body).series.flatMap(({ points }) => points.map(({ metric, value }) => `${metric}=${value}`));

describe("readMetricsProtobuf", () => {
  it.each(readerCases)("reads $name", ({ request, expected }) => {
    expect(read(encodeRequest(request))).toEqual(expected);
  });

  it("converts any time exactly to whole milliseconds", () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 2n ** 64n - 1n), (nanos) => {
        const body = encodeRequest(
          requestOf({ name: "m", gauge: { dataPoints: [{ timeUnixNano: nanos, asDouble: 1 }] } }),
        );
        expect(read(body).series[0]!.points[0]!.timestamp).toBe(nanos === 0n ? arrivalMs : Number(nanos / 1_000_000n));
      }),
    );
  });

  it("refuses every truncation of a body as a body it cannot decode", () => {
    // A body of one ResourceMetrics: cut where a second one would start, a body is whole.
    const oneResource = readerCases.filter(({ request }) => request.resourceMetrics?.length === 1);
    for (const body of [richBody, ...oneResource.map(({ request }) => encodeRequest(request))]) {
      for (let length = 1; length < body.length; length++) {
        expect(() => read(body.subarray(0, length)), `${length} of ${body.length} bytes`).toThrow(OtlpBodyError);
      }
    }
    expect(read(new Uint8Array(0)).points).toBe(0);
  });

  it("either reads or refuses corrupt bodies, and never fails otherwise", () => {
    const readOrRefuse = (body: Uint8Array) => {
      try {
        read(body);
      } catch (error) {
        expect(error).toBeInstanceOf(OtlpBodyError);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), readOrRefuse));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(richBody.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (changes) => {
          const body = richBody.slice();
          for (const [at, byte] of changes) body[at] = byte;
          readOrRefuse(body);
        },
      ),
    );
  });

  it("skips fields it does not know, of every wire type, at every level", () => {
    const point = concat(unknownFields, encodeMessage("NumberDataPoint", { asDouble: 1 }), unknownFields);
    const metric = concat(encodeMessage("Metric", { name: "m", gauge: { dataPoints: [point] } }), unknownFields);
    const request = concat(
      unknownFields,
      encodeRequest({
        resourceMetrics: [
          concat(
            unknownFields,
            encodeMessage("ResourceMetrics", {
              resource: concat(encodeMessage("Resource", { attributes: [keyValue("k", text("v"))] }), unknownFields),
              scopeMetrics: [concat(encodeMessage("ScopeMetrics", { metrics: [metric] }), unknownFields)],
            }),
          ),
        ],
      }),
    );
    const { series } = read(request);
    expect(series).toEqual([
      { labels: [], primaryOnly: [["k", "v"]], origin: 0, points: [{ metric: "m", value: 1, timestamp: arrivalMs }] },
    ]);
  });

  it("reads fields in any order: names after data, resources after their scopes", () => {
    const body = encodeRequest({
      resourceMetrics: [
        {
          scopeMetrics: [
            {
              metrics: [
                { gauge: { dataPoints: [{ asDouble: 1, attributes: [keyValue("a", text("b"))] }] }, name: "late" },
              ],
            },
          ],
          resource: { attributes: [keyValue("host.name", text("vm1"))] },
        },
      ],
    });
    expect(read(body).series).toEqual([
      {
        labels: [["a", "b"]],
        primaryOnly: [["host.name", "vm1"]],
        origin: 0,
        points: [{ metric: "late", value: 1, timestamp: arrivalMs }],
      },
    ]);
  });

  it("merges messages sent twice, and takes the last member of a oneof", () => {
    const gauge = (value: number) => encodeMessage("Metric", { gauge: { dataPoints: [{ asDouble: value }] } });
    const sum = (value: number) => encodeMessage("Metric", { sum: { dataPoints: [{ asDouble: value }] } });
    const name = encodeMessage("Metric", { name: "m" });
    const request = (...metric: Uint8Array[]) => encodeRequest(requestOf(concat(name, ...metric)));
    expect(values(request(gauge(1), gauge(2)))).toEqual(["m=1", "m=2"]);
    expect(values(request(gauge(1), sum(2)))).toEqual(["m=2"]);
    expect(values(request(sum(1), gauge(2), name, gauge(3)))).toEqual(["m=2", "m=3"]);

    const asInt = encodeMessage("NumberDataPoint", { asInt: "5" });
    const asDouble = encodeMessage("NumberDataPoint", { asDouble: 1.5 });
    const pointsOf = (point: Uint8Array) => encodeRequest(requestOf({ name: "m", gauge: { dataPoints: [point] } }));
    expect(values(pointsOf(concat(asDouble, asInt)))).toEqual(["m=5"]);
    expect(values(pointsOf(concat(asInt, asDouble)))).toEqual(["m=1.5"]);

    const twoResources = encodeRequest({
      resourceMetrics: [
        concat(
          encodeMessage("ResourceMetrics", { resource: { attributes: [keyValue("a", text("1"))] } }),
          encodeMessage("ResourceMetrics", {
            scopeMetrics: [{ metrics: [{ name: "m", gauge: { dataPoints: [{ asDouble: 1 }] } }] }],
          }),
          encodeMessage("ResourceMetrics", { resource: { attributes: [keyValue("b", text("2"))] } }),
        ),
      ],
    });
    expect(read(twoResources).series[0]!.primaryOnly).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("reads repeated numbers packed or not", () => {
    const fixed64 = (value: number) => [...new Uint8Array(new BigUint64Array([BigInt(value)]).buffer)];
    const float64 = (value: number) => [...new Uint8Array(new Float64Array([value]).buffer)];
    const point = concat(
      encodeMessage("HistogramDataPoint", { count: "6", bucketCounts: ["1"] }),
      rawField(6, 1, ...fixed64(2)),
      encodeMessage("HistogramDataPoint", { bucketCounts: ["3"], explicitBounds: [1] }),
      rawField(7, 1, ...float64(2)),
    );
    expect(values(encodeRequest(requestOf({ name: "h", histogram: { dataPoints: [point] } })))).toEqual([
      "h.count=6",
      "h.bucket=1",
      "h.bucket=3",
      "h.bucket=6",
    ]);
  });

  it("reads negative and large integers", () => {
    const body = encodeRequest(
      requestOf({
        name: "m",
        gauge: {
          dataPoints: [
            { asInt: "-9223372036854775808", attributes: [keyValue("i", { intValue: "-1" })] },
            { asInt: "9007199254740993", attributes: [keyValue("i", { intValue: "4611686018427387904" })] },
          ],
        },
      }),
    );
    const { series } = read(body);
    expect(series.map(({ labels, points }) => [labels[0]![1], points[0]!.value])).toEqual([
      ["-1", -(2 ** 63)],
      ["4611686018427387904", 2 ** 53],
    ]);
  });

  it("rejects a data point whose own bytes cannot be decoded, and keeps the others", () => {
    const points = [
      concat(encodeMessage("NumberDataPoint", { asDouble: 1 }), rawField(4, 0, 1)),
      concat(rawField(3, 5, 0, 0, 0, 0)),
      concat(rawField(20, 3)),
      encodeMessage("NumberDataPoint", { asDouble: 1, attributes: [keyValue("k", nested(maxValueNesting + 1))] }),
      encodeMessage("NumberDataPoint", {
        asDouble: 1,
        attributes: [{ key: "k", value: Uint8Array.of(0x0a, 1, 0xff) }],
      }),
      concat(rawField(6, 2, 3, 1, 2, 3)),
      encodeMessage("NumberDataPoint", { asDouble: 2 }),
    ];
    const result = read(encodeRequest(requestOf({ name: "m", gauge: { dataPoints: points } })));
    expect(result.rejectedDataPoints).toBe(6);
    expect(result.refused.map(({ message }) => message)).toEqual([
      expect.stringMatching(
        /^metric "m": data point 0: cannot be decoded: wire type 0 where the schema has 1 at byte \d+$/,
      ),
      expect.stringMatching(
        /^metric "m": data point 1: cannot be decoded: wire type 5 where the schema has 1 at byte \d+$/,
      ),
      expect.stringMatching(/^metric "m": data point 2: cannot be decoded: wire type 3 is not supported at byte \d+$/),
      expect.stringMatching(
        new RegExp(`^metric "m": data point 3: cannot be decoded: attribute values nest more than ${maxValueNesting}`),
      ),
      expect.stringMatching(/^metric "m": data point 4: cannot be decoded: a string field is not valid UTF-8/),
      expect.stringMatching(/^metric "m": data point 5: cannot be decoded: wire type 2 where the schema has 1/),
    ]);
    expect(values(encodeRequest(requestOf({ name: "m", gauge: { dataPoints: points } })))).toEqual(["m=2"]);
  });

  it("finds a point's attribute set of strings again by its bytes, for every point and request that sends it", () => {
    const set = [keyValue("id", text(crypto.randomUUID())), keyValue("cpu", text("0"))];
    const body = encodeRequest(
      requestOf(
        { name: "a", gauge: { dataPoints: [{ asDouble: 1, attributes: set }] } },
        { name: "b", gauge: { dataPoints: [{ asDouble: 2, attributes: set }] } },
        { name: "c", gauge: { dataPoints: [{ asDouble: 3, attributes: [keyValue("n", { intValue: "1" })] }] } },
      ),
    );
    const [first, second, other] = read(body).series;
    expect(second!.labels).toBe(first!.labels);
    expect(read(body).series[0]!.labels).toBe(first!.labels);
    expect(Object.isFrozen(other!.labels)).toBe(false);
    expect(read(body).series[2]!.labels).toEqual(other!.labels);
  });

  it("reads attributes sent apart, around the point's other fields, in order", () => {
    const point = concat(
      encodeMessage("NumberDataPoint", { attributes: [keyValue("a", text("1")), keyValue("b", text("2"))] }),
      encodeMessage("NumberDataPoint", { asDouble: 1 }),
      encodeMessage("NumberDataPoint", { attributes: [keyValue("c", text("3"))] }),
      encodeMessage("NumberDataPoint", { attributes: [keyValue("d", text("4"))] }),
    );
    expect(read(encodeRequest(requestOf({ name: "m", gauge: { dataPoints: [point] } }))).series[0]!.labels).toEqual([
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
      ["d", "4"],
    ]);
  });

  it("rejects a point with the error met first in order, though its attributes are passed over before they are read", () => {
    const point = concat(
      encodeMessage("NumberDataPoint", {
        asDouble: 1,
        attributes: [{ key: "k", value: Uint8Array.of(0x0a, 1, 0xff) }],
      }),
      rawField(7, 2, 9, 1),
    );
    const result = read(encodeRequest(requestOf({ name: "m", gauge: { dataPoints: [point] } })));
    expect(result.refused.map(({ message }) => message)).toEqual([
      expect.stringMatching(/^metric "m": data point 0: cannot be decoded: a string field is not valid UTF-8/),
    ]);
  });

  it("accepts attribute values nested up to the limit", () => {
    const body = encodeRequest(
      requestOf({
        name: "m",
        gauge: { dataPoints: [{ asDouble: 1, attributes: [keyValue("k", nested(maxValueNesting))] }] },
      }),
    );
    expect(read(body).series[0]!.labels[0]![1]).toBe(`${"[".repeat(maxValueNesting)}"x"${"]".repeat(maxValueNesting)}`);
  });

  it.each([
    [
      "a resource attribute nested too deeply",
      encodeRequest({ resourceMetrics: [{ resource: { attributes: [keyValue("k", nested(maxValueNesting + 1))] } }] }),
    ],
    ["a metric name that is not UTF-8", encodeRequest(requestOf(concat(rawField(1, 2, 1, 0xc0))))],
    [
      "a metric of the wrong wire type",
      encodeRequest({ resourceMetrics: [{ scopeMetrics: [concat(rawField(2, 0, 1))] }] }),
    ],
    ["a data field of the wrong wire type", encodeRequest(requestOf(concat(rawField(5, 1, 0, 0, 0, 0, 0, 0, 0, 0))))],
    ["a field number 0", Uint8Array.of(0x00, 0x00)],
    ["a group", Uint8Array.from(rawField(20, 3))],
    ["a varint longer than 10 bytes", Uint8Array.of(0x08, ...new Array(10).fill(0xff), 0x01)],
  ])("refuses a body with %s", (_, body) => {
    expect(() => read(body)).toThrow(OtlpBodyError);
  });

  it("stops at maxPoints without reading further, and says the request holds too many", () => {
    const request = requestOf(
      { name: "g", gauge: { dataPoints: [{ asDouble: 1 }, { asDouble: 2 }] } },
      { name: "h", histogram: { dataPoints: [{ count: "1", sum: 1, bucketCounts: ["1", "0"], explicitBounds: [1] }] } },
    );
    const body = encodeRequest(request);
    expect(read(body, 6)).toMatchObject({ points: 6, tooMany: false });
    expect(read(body, 5)).toMatchObject({ points: 2, tooMany: true });
    const thenGarbage = concat(body, encodeRequest(request), [0xff]);
    expect(() => read(thenGarbage, 100)).toThrow(OtlpBodyError);
    expect(read(thenGarbage, 8)).toMatchObject({ points: 8, tooMany: true });
  });

  it("gives the values the OpenTelemetry SDK exported", async () => {
    await fc.assert(
      fc.asyncProperty(recordingsArbitrary, async (recordings) => {
        const { resourceMetrics, protobuf } = await sdkExport(recordings, {
          "service.name": "shop",
          "host.name": "vm1",
        });
        const result = read(protobuf);
        expect(result.series).toEqual(expectedSeries(resourceMetrics));
        expect(result.rejectedDataPoints).toBe(0);
      }),
      { numRuns: 50 },
    );
  });
});
