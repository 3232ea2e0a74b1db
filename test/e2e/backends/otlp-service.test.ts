import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "../support/http-receiver.ts";
import { eventually, type Service, startService } from "../support/service.ts";
import { readUntil } from "../support/stored-series.ts";
import type { TowerDatum } from "../support/tower-observer.ts";

/*
 * OTLP in, OTLP out: the OpenTelemetry SDK exports to one instance of the service (the edge), whose
 * `OTLP` observer (a selector's) and `OTLP/JSON` observers (per metric) deliver to a second
 * instance's /otlp/v1/metrics (the centre). What the centre made of them must be what the edge made
 * of the SDK's export: the same names, labels (so resourceIds), values and times, each once; and
 * the centre's own deliveries carry the chain on in `tower-edge-via` (edge, then centre).
 */

/** The edge's data of each prefix go to the centre in one encoding. */
const protobufPrefix = "otel_pb";
const jsonPrefix = "otel_json";
const metricsOf = (prefix: string) => [
  `${prefix}.temperature`,
  `${prefix}.requests`,
  ...["count", "sum", "min", "max", "bucket"].map((suffix) => `${prefix}.latency.${suffix}`),
];
/** Per prefix: a gauge, a counter, a histogram's count, sum, min and max, and its four buckets. */
const dataPerPrefix = 10;
const bothPrefixes = `{__name__=~"(${protobufPrefix}|${jsonPrefix})[.].+"}`;

let edge: Service;
let centre: Service;
/** What the edge made of the SDK's export, and what the centre made of the edge's deliveries. */
let atEdge: HttpReceiver;
let atCentre: HttpReceiver;
const edgeObservers: string[] = [];

async function observeInTowerJson(service: Service, receiver: HttpReceiver): Promise<void> {
  const registered = await service.call("POST", "/observers", {
    match: [bothPrefixes],
    format: "TOWER/JSON",
    callbackUrl: receiver.url,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
}

/** Registers an observer on the edge (expects 201) and keeps its path, for the diagnosis. */
async function observeOnEdge(path: string, registration: Record<string, unknown>): Promise<void> {
  const registered = await edge.call("POST", path, registration);
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  edgeObservers.push(`${path}/${registered.body.id}`);
}

beforeAll(async () => {
  [edge, centre] = await Promise.all([startService(), startService()]);
  [atEdge, atCentre] = await Promise.all([startHttpReceiver(), startHttpReceiver()]);
  await observeInTowerJson(edge, atEdge);
  await observeInTowerJson(centre, atCentre);
  const centreIntake = `${centre.url}/otlp/v1/metrics`;
  await observeOnEdge("/observers", {
    match: [`{__name__=~"${protobufPrefix}[.].+"}`],
    format: "OTLP",
    callbackUrl: centreIntake,
  });
  for (const metric of metricsOf(jsonPrefix)) {
    const path = `/metrics/${encodeURIComponent(metric)}`;
    expect((await edge.call("PUT", path)).status).toBe(201);
    await observeOnEdge(`${path}/observers`, { format: "OTLP/JSON", callbackUrl: centreIntake });
  }
  await exportOnce();
});

afterAll(async () => {
  await Promise.all([atEdge?.close(), atCentre?.close()]);
  await Promise.all([edge?.stop(), centre?.stop()]);
});

/** Records the same measurements under each prefix and exports them once, as an application ending does. */
async function exportOnce(): Promise<void> {
  const exporter = new OTLPMetricExporter({ url: `${edge.url}/otlp/v1/metrics` });
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    // service.instance.id is the primary label; the other resource attributes are not labels.
    resource: resourceFromAttributes({ "service.name": "checkout", "service.instance.id": "pod-7", zone: "eu" }),
    readers: [reader],
  });
  const meter = provider.getMeter("e2e");
  for (const prefix of [protobufPrefix, jsonPrefix]) {
    meter.createGauge(`${prefix}.temperature`, { unit: "Cel" }).record(21.5, { room: "lab 2, floor=3" });
    meter.createCounter(`${prefix}.requests`).add(3, { code: 200, cached: false });
    const latency = meter.createHistogram(`${prefix}.latency`, { advice: { explicitBucketBoundaries: [0.1, 1, 10] } });
    for (const seconds of [0.05, 0.5, 5]) latency.record(seconds, { route: "/pay" });
  }
  await provider.shutdown();
}

const dataAt = (receiver: HttpReceiver): TowerDatum[] =>
  receiver.received
    .flatMap((request) => JSON.parse(request.body) as TowerDatum[])
    .sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));

describe("OpenTelemetry SDK → service → OTLP and OTLP/JSON observers → a second service", () => {
  it("the second service gets the same names, labels, values and times as the first made of the export", async () => {
    const edgeData = await readUntil(
      async () => dataAt(atEdge),
      (data) => data.length >= 2 * dataPerPrefix,
      20_000,
    );
    const centreData = await readUntil(
      async () => dataAt(atCentre),
      (data) => data.length >= edgeData.length,
      20_000,
    );
    const statuses = await Promise.all(edgeObservers.map(async (path) => (await edge.call("GET", path)).body));
    expect(centreData, `the edge's observers: ${JSON.stringify(statuses)}`).toEqual(edgeData);

    // What the edge made of the export, as the intake contract maps it, under both prefixes alike.
    const [temperature] = edgeData.filter(({ metric }) => metric === `${jsonPrefix}.temperature`);
    expect(temperature).toMatchObject({ resourceId: "pod-7,room=lab\\ 2\\,\\ floor\\=3", value: 21.5 });
    for (const prefix of [protobufPrefix, jsonPrefix]) {
      const ofPrefix = edgeData.filter(({ metric }) => metric.startsWith(`${prefix}.`));
      expect(new Set(ofPrefix.map(({ metric }) => metric))).toEqual(new Set(metricsOf(prefix)));
      expect(ofPrefix.map(({ metric, resourceId, value }) => ({ metric, resourceId, value }))).toEqual(
        expect.arrayContaining([
          { metric: `${prefix}.requests`, resourceId: "pod-7,cached=false,code=200", value: 3 },
          { metric: `${prefix}.latency.sum`, resourceId: "pod-7,route=/pay", value: 5.55 },
          { metric: `${prefix}.latency.bucket`, resourceId: "pod-7,le=+Inf,route=/pay", value: 3 },
        ]),
      );
    }
  });

  it("the second service's deliveries name both services, the first one first", async () => {
    await eventually(() => atCentre.received.length > 0, 20_000, { what: "a delivery from the second service" });
    const [edgeInstance, centreInstance] = await Promise.all(
      [edge, centre].map(async (service) => (await service.call("GET", "/healthz")).body.instance),
    );
    expect(new Set(atCentre.received.map(({ headers }) => headers["tower-edge-via"]))).toEqual(
      new Set([`${edgeInstance}, ${centreInstance}`]),
    );
  });
});
