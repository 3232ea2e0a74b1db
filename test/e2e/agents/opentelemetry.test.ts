import { OTLPMetricExporter as JsonExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtobufExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type Service, startService } from "../support/service.ts";
import { observeInTowerJson, type TowerDatum, type TowerObserver } from "../support/tower-observer.ts";

/*
 * The OpenTelemetry JS SDK exports a gauge, a counter and a histogram to /otlp/v1/metrics, in
 * protobuf (configured by the environment variables docs/GUIDE.md gives) and in JSON: each arrives
 * at the observers of its metrics as the contract maps it.
 */

let service: Service;
const observers = new Map<string, TowerObserver>();

const encodings = {
  protobuf: () => {
    // As docs/GUIDE.md configures it: the SDK reads the endpoint and headers from the environment.
    process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT = `${service.url}/otlp/v1/metrics`;
    process.env.OTEL_EXPORTER_OTLP_METRICS_HEADERS = "Authorization=Bearer ingest-e2e";
    try {
      return new ProtobufExporter();
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
      delete process.env.OTEL_EXPORTER_OTLP_METRICS_HEADERS;
    }
  },
  json: () =>
    new JsonExporter({ url: `${service.url}/otlp/v1/metrics`, headers: { authorization: "Bearer ingest-e2e" } }),
} satisfies Record<string, () => PushMetricExporter>;

const metricsOf = (prefix: string) => [
  `${prefix}.temperature`,
  `${prefix}.requests`,
  ...["count", "sum", "min", "max", "bucket"].map((suffix) => `${prefix}.latency.${suffix}`),
];

beforeAll(async () => {
  service = await startService({ AUTH_DISABLED: "false", ADMIN_TOKEN: "admin-e2e", INGEST_TOKEN: "ingest-e2e" });
  for (const encoding of Object.keys(encodings)) {
    for (const metric of metricsOf(`otel.${encoding}`))
      observers.set(metric, await observeInTowerJson(service, metric));
  }
});

afterAll(async () => {
  await Promise.all([...observers.values()].map((observer) => observer.receiver.close()));
  await service?.stop();
});

/** Records one value of each instrument and exports them once, as the SDK does when its provider shuts down. */
async function exportOnce(prefix: string, exporter: PushMetricExporter): Promise<number> {
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ "service.name": "checkout", "service.instance.id": "pod-7", zone: "eu" }),
    readers: [reader],
  });
  const meter = provider.getMeter("e2e");
  meter.createGauge(`${prefix}.temperature`, { unit: "Cel" }).record(21.5, { room: "lab" });
  meter.createCounter(`${prefix}.requests`).add(3, { code: "200" });
  const latency = meter.createHistogram(`${prefix}.latency`, { advice: { explicitBucketBoundaries: [0.1, 1, 10] } });
  for (const seconds of [0.05, 0.5, 5]) latency.record(seconds);
  const exportedAround = Date.now();
  // Shutting down exports once more, as an application ending does: the one export of this test.
  await provider.shutdown();
  return exportedAround;
}

const received = (metric: string): TowerDatum[] => observers.get(metric)!.data();

describe.each(Object.keys(encodings) as (keyof typeof encodings)[])(
  "the OpenTelemetry SDK exporting %s",
  (encoding) => {
    it("delivers gauges, sums and histograms as the contract maps them", async () => {
      const prefix = `otel.${encoding}`;
      const exportedAround = await exportOnce(prefix, encodings[encoding]());
      await eventually(() => received(`${prefix}.latency.bucket`).length >= 4, 30_000, {
        what: "the histogram's buckets",
      });
      await eventually(() => metricsOf(prefix).every((metric) => received(metric).length > 0), 30_000);

      const only = (metric: string) => {
        const [datum, ...more] = received(metric);
        expect(more).toEqual([]);
        expect(Math.abs(datum!.timestamp - exportedAround)).toBeLessThan(30_000);
        return { resourceId: datum!.resourceId, value: datum!.value };
      };
      expect(only(`${prefix}.temperature`)).toEqual({ resourceId: "pod-7,room=lab", value: 21.5 });
      expect(only(`${prefix}.requests`)).toEqual({ resourceId: "pod-7,code=200", value: 3 });
      expect(only(`${prefix}.latency.count`)).toEqual({ resourceId: "pod-7", value: 3 });
      expect(only(`${prefix}.latency.sum`)).toEqual({ resourceId: "pod-7", value: 5.55 });
      expect(only(`${prefix}.latency.min`)).toEqual({ resourceId: "pod-7", value: 0.05 });
      expect(only(`${prefix}.latency.max`)).toEqual({ resourceId: "pod-7", value: 5 });
      const buckets = Object.fromEntries(
        received(`${prefix}.latency.bucket`).map((datum) => [datum.resourceId, datum.value]),
      );
      expect(buckets).toEqual({ "pod-7,le=0.1": 1, "pod-7,le=1": 2, "pod-7,le=10": 3, "pod-7,le=+Inf": 3 });
    });
  },
);
