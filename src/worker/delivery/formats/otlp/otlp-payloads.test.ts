import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SeriesKeyOptions, seriesToData } from "../../../intake/common/series-data";
import { readMetricsJson } from "../../../intake/otlp/metrics-json";
import type { OtlpMetricsResult } from "../../../intake/otlp/metrics-mapping";
import { readMetricsProtobuf } from "../../../intake/otlp/metrics-protobuf";
import { encodeRequest } from "../../../intake/otlp/testing/otlp-protobuf-encoder";
import { readerCases } from "../../../intake/otlp/testing/reader-cases";
import { recordingsArbitrary, sdkExport } from "../../../intake/otlp/testing/sdk-export";
import { toRow } from "../../../intake/queue-message";
import type { Datum } from "../../../vocabulary/datum";
import type { MetricRun } from "../../../vocabulary/delivery";
import { otlpJsonPayloads, otlpPayloads } from "./otlp-payloads";
import {
  arrivalMs,
  expectedPoints,
  labelChangesArbitrary,
  pointsRead,
  runsArbitrary,
} from "./testing/otlp-output-cases";

const maxPoints = 100_000;

/** The intake's key options for OTLP without query parameters: its primary resource attributes (routes.ts). */
const otlpKeyOptions: SeriesKeyOptions = {
  primary: ["service.instance.id", "host.name", "service.name"],
  drop: new Set(),
  maxMetricNameLength: 256,
};

/** The data the OTLP route accepts of a request, as it reads them. */
const intakeData = (reading: OtlpMetricsResult): Datum[] => seriesToData(reading.series, otlpKeyOptions).data;

/** Data as a payload carries them: a run per metric of the rows queue messages hold. */
function runsOf(data: readonly Datum[]): MetricRun[] {
  const byMetric = new Map<string, Datum[]>();
  for (const datum of data) byMetric.set(datum.metric, [...(byMetric.get(datum.metric) ?? []), datum]);
  return [...byMetric].map(([metric, metricData]) => [metric, metricData.map(toRow)]);
}

/** The data delivered as OTLP, or OTLP/JSON, then sent to the OTLP route. */
const deliveredAgain = {
  protobuf: (data: readonly Datum[]) =>
    otlpPayloads(runsOf(data)).flatMap((body) => intakeData(readMetricsProtobuf(body, arrivalMs, maxPoints))),
  json: (data: readonly Datum[]) =>
    otlpJsonPayloads(runsOf(data)).flatMap((text) =>
      intakeData(readMetricsJson(JSON.parse(text), arrivalMs, maxPoints)),
    ),
};

/** Data in one comparable line each (NaN equals NaN, -0 differs from 0), sorted. */
const dataText = (data: readonly Datum[]) =>
  data
    .map(({ id, metric, timestamp, value, resourceId, labels }) =>
      JSON.stringify([metric, resourceId, labels, timestamp, Object.is(value, -0) ? "-0" : String(value), id]),
    )
    .sort();

/**
 * OTLP in, OTLP out: the data a request gives, delivered in either encoding and taken in again,
 * are the same data, the same names, labels (data-point attributes and the primary resource
 * attribute), values and times, and so the same resource ids and datum ids.
 */
function expectSameDataThroughDelivery(data: readonly Datum[]): void {
  expect(data.every(({ labels }) => labels !== undefined)).toBe(true);
  expect(dataText(deliveredAgain.protobuf(data))).toEqual(dataText(data));
  expect(dataText(deliveredAgain.json(data))).toEqual(dataText(data));
}

describe("otlpPayloads and otlpJsonPayloads", () => {
  it("make one request of a payload, read back as every datum it can carry", () => {
    fc.assert(
      fc.property(runsArbitrary, labelChangesArbitrary, (runs, changes) => {
        const expected = expectedPoints(runs, changes);
        const bodies = otlpPayloads(runs, changes);
        const texts = otlpJsonPayloads(runs, changes);
        expect([bodies.length, texts.length]).toEqual(expected.length === 0 ? [0, 0] : [1, 1]);
        expect(bodies.flatMap((body) => pointsRead(readMetricsProtobuf(body, arrivalMs, maxPoints)))).toEqual(expected);
        expect(texts.flatMap((text) => pointsRead(readMetricsJson(JSON.parse(text), arrivalMs, maxPoints)))).toEqual(
          expected,
        );
      }),
    );
  });

  it("make no payload when no datum is left to carry", () => {
    expect(otlpPayloads([["cpu", [["a", -1, 1, "r"]]]])).toEqual([]);
    expect(otlpJsonPayloads([])).toEqual([]);
  });

  describe("give the data of an OTLP request, taken in, delivered and taken in again, as they were", () => {
    it.each(readerCases)("of the test encoder's request: $name", ({ request }) => {
      expectSameDataThroughDelivery(intakeData(readMetricsProtobuf(encodeRequest(request), arrivalMs, maxPoints)));
    });

    it("of random requests of the test encoder, NaN and infinities too, with resource attributes or without", () => {
      const text = fc.constantFrom("a", "b", "vm1", "€", "x,y=z");
      const attributes = fc
        .uniqueArray(fc.tuple(fc.constantFrom("service.instance.id", "host.name", "service.name", "a", "b"), text), {
          selector: ([key]) => key,
          maxLength: 3,
        })
        .map((pairs) => pairs.map(([key, value]) => ({ key, value: { stringValue: value } })));
      const point = fc.record({
        attributes,
        timeUnixNano: fc.bigInt(0n, 2n ** 64n - 1n).map(String),
        asDouble: fc.oneof(fc.double(), fc.constantFrom("NaN", "Infinity", "-Infinity")),
      });
      const metric = fc.record({
        name: fc.constantFrom("cpu", "mem.used", "http_requests"),
        gauge: fc.record({ dataPoints: fc.array(point, { maxLength: 4 }) }),
      });
      const resourceMetrics = fc.record({
        resource: fc.record({ attributes }),
        scopeMetrics: fc.array(fc.record({ metrics: fc.array(metric, { maxLength: 3 }) }), { maxLength: 2 }),
      });
      fc.assert(
        fc.property(fc.array(resourceMetrics, { maxLength: 3 }), (resources) => {
          const body = encodeRequest({ resourceMetrics: resources });
          expectSameDataThroughDelivery(intakeData(readMetricsProtobuf(body, arrivalMs, maxPoints)));
        }),
      );
    });

    it("of the OpenTelemetry SDK's exports, in either encoding", async () => {
      await fc.assert(
        fc.asyncProperty(
          recordingsArbitrary,
          fc.constantFrom<Record<string, string>>(
            { "service.name": "shop", "service.instance.id": "i-1", "telemetry.sdk.language": "nodejs" },
            { "service.name": "shop" },
            { "deployment.environment": "test" },
          ),
          async (recordings, resource) => {
            const { protobuf, json } = await sdkExport(recordings, resource);
            expectSameDataThroughDelivery(intakeData(readMetricsProtobuf(protobuf, arrivalMs, maxPoints)));
            expectSameDataThroughDelivery(intakeData(readMetricsJson(json, arrivalMs, maxPoints)));
          },
        ),
        { numRuns: 30 },
      );
    });
  });
});
