/*
 * Test support: real OTLP bodies from the OpenTelemetry JavaScript SDK and its exporters'
 * serializers, from random measurements, and the series they must give, derived from the SDK's
 * own collected data rather than from the bodies.
 */
import { type Attributes, ValueType } from "@opentelemetry/api";
import { JsonMetricsSerializer, ProtobufMetricsSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AggregationType,
  DataPointType,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import fc from "fast-check";
import type { LabelledPoints, SeriesPoint } from "../../common/series.ts";

const instrumentKinds = ["counter", "upDownCounter", "gauge", "histogram", "exponentialHistogram"] as const;

interface Recording {
  kind: (typeof instrumentKinds)[number];
  integer: boolean;
  measurements: { value: number; attributes: Attributes }[];
}

const attributesArbitrary: fc.Arbitrary<Attributes> = fc.dictionary(
  fc.constantFrom("a", "b", "host.name"),
  fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.boolean(),
    fc.integer({ min: -1_000, max: 1_000 }),
    // The SDK's JSON serializer sends integral numbers as int_value, also beyond the int64 range.
    fc.double({ min: -(2 ** 62), max: 2 ** 62, noNaN: true }),
  ),
  { maxKeys: 3 },
);

/**
 * Measurements of a few instruments. Counters and histograms take no negative values; JSON has no
 * NaN, no infinities and no -0 (it writes 0), so the two exports can only agree without them.
 */
export const recordingsArbitrary: fc.Arbitrary<Recording[]> = fc.array(
  fc.record({ kind: fc.constantFrom(...instrumentKinds), integer: fc.boolean() }).chain(({ kind, integer }) => {
    const min = kind === "upDownCounter" || kind === "gauge" ? -1e9 : 0;
    const value = integer
      ? fc.integer({ min, max: 1e9 })
      : fc
          .double({ min, max: 1e9, noNaN: true, noDefaultInfinity: true })
          .map((value) => (Object.is(value, -0) ? 0 : value));
    const measurements = fc.array(fc.record({ value, attributes: attributesArbitrary }), {
      minLength: 1,
      maxLength: 6,
    });
    return measurements.map((measured) => ({ kind, integer, measurements: measured }));
  }),
  { maxLength: 5 },
);

class CollectingReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/** The SDK's data for the recordings, and the request its OTLP exporters would send, in both encodings. */
export async function sdkExport(
  recordings: Recording[],
  resource: Record<string, string>,
): Promise<{ resourceMetrics: ResourceMetrics; protobuf: Uint8Array; json: unknown }> {
  const name = (index: number) => `${recordings[index]!.kind}_${index}`;
  const reader = new CollectingReader();
  const provider = new MeterProvider({
    resource: resourceFromAttributes(resource),
    readers: [reader],
    views: recordings.flatMap(({ kind }, index) =>
      kind === "exponentialHistogram"
        ? [{ instrumentName: name(index), aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }]
        : [],
    ),
  });
  const meter = provider.getMeter("io.example.test", "1.0.0");
  for (const [index, { kind, integer, measurements }] of recordings.entries()) {
    const options = { valueType: integer ? ValueType.INT : ValueType.DOUBLE };
    const instrument =
      kind === "counter"
        ? meter.createCounter(name(index), options)
        : kind === "upDownCounter"
          ? meter.createUpDownCounter(name(index), options)
          : kind === "gauge"
            ? meter.createGauge(name(index), options)
            : meter.createHistogram(name(index), options);
    for (const { value, attributes } of measurements) {
      if ("add" in instrument) instrument.add(value, attributes);
      else instrument.record(value, attributes);
    }
  }
  const { resourceMetrics } = await reader.collect();
  await provider.shutdown();
  const protobuf = ProtobufMetricsSerializer.serializeRequest(resourceMetrics)!;
  const json = JSON.parse(new TextDecoder().decode(JsonMetricsSerializer.serializeRequest(resourceMetrics)!));
  return { resourceMetrics, protobuf, json };
}

/** Attributes as labels: integral numbers travel as int_value, and are written as integers. */
const labelsOf = (attributes: Attributes): [string, string][] =>
  Object.entries(attributes).map(([key, value]) => [
    key,
    typeof value === "number" && Number.isInteger(value) ? BigInt(value).toString() : String(value),
  ]);

/** The series the collected data must give. */
export function expectedSeries(resourceMetrics: ResourceMetrics): LabelledPoints[] {
  const primaryOnly = labelsOf(resourceMetrics.resource.attributes);
  const series: LabelledPoints[] = [];
  let origin = 0;
  for (const { metrics } of resourceMetrics.scopeMetrics) {
    for (const metric of metrics) {
      const name = metric.descriptor.name;
      for (const point of metric.dataPoints) {
        const [seconds, nanos] = point.endTime;
        const timestamp = seconds * 1000 + Math.floor(nanos / 1e6);
        const at = (suffix: string, value: number): SeriesPoint => ({ metric: name + suffix, value, timestamp });
        const labels = labelsOf(point.attributes);
        const add = (extra: [string, string][], points: SeriesPoint[]) =>
          series.push({ labels: [...labels, ...extra], primaryOnly, origin, points });
        const value = point.value;
        if (typeof value === "number") add([], [at("", value)]);
        else {
          const statistics = [at(".count", value.count)];
          for (const [suffix, statistic] of [
            [".sum", value.sum],
            [".min", value.min],
            [".max", value.max],
          ] as const) {
            if (statistic !== undefined) statistics.push(at(suffix, statistic));
          }
          add([], statistics);
          if (metric.dataPointType === DataPointType.HISTOGRAM && "buckets" in value) {
            let cumulative = 0;
            for (const [index, count] of value.buckets.counts.entries()) {
              cumulative += count;
              const bound = value.buckets.boundaries[index];
              add([["le", bound === undefined ? "+Inf" : String(bound)]], [at(".bucket", cumulative)]);
            }
          }
        }
        origin++;
      }
    }
  }
  return series;
}
