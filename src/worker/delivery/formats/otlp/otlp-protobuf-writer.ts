import type { Label } from "../../../vocabulary/datum";
import { fixed64FieldLength, lengthDelimitedLength, ProtobufWriter } from "../protobuf-writer";
import type { OtlpGauge, OtlpMetricsRequest, OtlpNumberPoint, OtlpResourceMetrics } from "./otlp-metrics-request";

/*
 * The request as application/x-protobuf. Field numbers of opentelemetry-proto (collector/metrics/v1,
 * metrics/v1, common/v1, resource/v1), as the intake's reader reads them; each message's fields in
 * the order of their numbers, as protobuf's own writers put them.
 */

const requestFields = { resourceMetrics: 1 };
const resourceMetricsFields = { resource: 1, scopeMetrics: 2 };
const resourceFields = { attributes: 1 };
const scopeMetricsFields = { scope: 1, metrics: 2 };
const scopeFields = { name: 1 };
const metricFields = { name: 1, gauge: 5 };
const gaugeFields = { dataPoints: 1 };
const pointFields = { timeUnixNano: 3, asDouble: 4, attributes: 7 };
const keyValueFields = { key: 1, value: 2 };
const anyValueFields = { stringValue: 1 };

/** A point's fields but its attributes. */
const pointValueLength = fixed64FieldLength(pointFields.timeUnixNano) + fixed64FieldLength(pointFields.asDouble);

const utf8 = new TextEncoder();

/** A metric with its parts encoded and its messages measured. */
interface MeasuredMetric {
  name: Uint8Array;
  points: readonly OtlpNumberPoint[];
  /** Each point's attributes as KeyValue fields. */
  attributes: readonly Uint8Array[];
  gaugeLength: number;
  length: number;
}

/** A ResourceMetrics with its parts encoded and its messages measured. */
interface MeasuredResourceMetrics {
  /** The Resource's attributes as KeyValue fields; empty when the resource has none, and then left out. */
  resourceAttributes: Uint8Array;
  scopeName: Uint8Array;
  scopeLength: number;
  scopeMetricsLength: number;
  metrics: readonly MeasuredMetric[];
  length: number;
}

/**
 * One request's encoding: each text and each points' attribute set is encoded once, however many
 * points share it (the points of a series share one array).
 */
class RequestEncoder {
  private readonly texts = new Map<string, Uint8Array>();
  private readonly pointAttributes = new Map<readonly Label[], Uint8Array>();

  encode(request: OtlpMetricsRequest): Uint8Array<ArrayBuffer> {
    const resources = request.resourceMetrics.map((resourceMetrics) => this.measureResourceMetrics(resourceMetrics));
    let length = 0;
    for (const resource of resources) length += lengthDelimitedLength(requestFields.resourceMetrics, resource.length);
    const writer = new ProtobufWriter(length);
    for (const resource of resources) {
      writer.lengthDelimited(requestFields.resourceMetrics, resource.length);
      writeResourceMetrics(writer, resource);
    }
    return writer.finish();
  }

  private text(value: string): Uint8Array {
    let bytes = this.texts.get(value);
    if (bytes === undefined) {
      bytes = utf8.encode(value);
      this.texts.set(value, bytes);
    }
    return bytes;
  }

  /** KeyValue fields numbered `field`, each value an AnyValue's string_value. */
  private keyValues(labels: readonly Label[], field: number): Uint8Array {
    const encoded = labels.map(([key, value]) => {
      const keyBytes = this.text(key);
      const valueBytes = this.text(value);
      const anyValueLength = lengthDelimitedLength(anyValueFields.stringValue, valueBytes.length);
      const keyValueLength =
        lengthDelimitedLength(keyValueFields.key, keyBytes.length) +
        lengthDelimitedLength(keyValueFields.value, anyValueLength);
      return { keyBytes, valueBytes, anyValueLength, keyValueLength };
    });
    let length = 0;
    for (const { keyValueLength } of encoded) length += lengthDelimitedLength(field, keyValueLength);
    const writer = new ProtobufWriter(length);
    for (const { keyBytes, valueBytes, anyValueLength, keyValueLength } of encoded) {
      writer.lengthDelimited(field, keyValueLength);
      writer.bytes(keyValueFields.key, keyBytes);
      writer.lengthDelimited(keyValueFields.value, anyValueLength);
      writer.bytes(anyValueFields.stringValue, valueBytes);
    }
    return writer.finish();
  }

  private attributesOfPoint(labels: readonly Label[]): Uint8Array {
    let bytes = this.pointAttributes.get(labels);
    if (bytes === undefined) {
      bytes = this.keyValues(labels, pointFields.attributes);
      this.pointAttributes.set(labels, bytes);
    }
    return bytes;
  }

  private measureMetric({ name, dataPoints }: OtlpGauge): MeasuredMetric {
    const nameBytes = this.text(name);
    const attributes = dataPoints.map(({ attributes }) => this.attributesOfPoint(attributes));
    let gaugeLength = 0;
    for (const bytes of attributes) {
      gaugeLength += lengthDelimitedLength(gaugeFields.dataPoints, pointValueLength + bytes.length);
    }
    const length =
      lengthDelimitedLength(metricFields.name, nameBytes.length) +
      lengthDelimitedLength(metricFields.gauge, gaugeLength);
    return { name: nameBytes, points: dataPoints, attributes, gaugeLength, length };
  }

  private measureResourceMetrics({ resource, scope, metrics }: OtlpResourceMetrics): MeasuredResourceMetrics {
    const resourceAttributes = this.keyValues(resource, resourceFields.attributes);
    const scopeName = this.text(scope);
    const scopeLength = lengthDelimitedLength(scopeFields.name, scopeName.length);
    const measured = metrics.map((metric) => this.measureMetric(metric));
    let scopeMetricsLength = lengthDelimitedLength(scopeMetricsFields.scope, scopeLength);
    for (const metric of measured)
      scopeMetricsLength += lengthDelimitedLength(scopeMetricsFields.metrics, metric.length);
    const resourceLength =
      resourceAttributes.length === 0
        ? 0
        : lengthDelimitedLength(resourceMetricsFields.resource, resourceAttributes.length);
    return {
      resourceAttributes,
      scopeName,
      scopeLength,
      scopeMetricsLength,
      metrics: measured,
      length: resourceLength + lengthDelimitedLength(resourceMetricsFields.scopeMetrics, scopeMetricsLength),
    };
  }
}

function writeResourceMetrics(writer: ProtobufWriter, resource: MeasuredResourceMetrics): void {
  if (resource.resourceAttributes.length > 0) {
    // A Resource message holding only its attributes: its content is exactly their fields.
    writer.bytes(resourceMetricsFields.resource, resource.resourceAttributes);
  }
  writer.lengthDelimited(resourceMetricsFields.scopeMetrics, resource.scopeMetricsLength);
  writer.lengthDelimited(scopeMetricsFields.scope, resource.scopeLength);
  writer.bytes(scopeFields.name, resource.scopeName);
  for (const metric of resource.metrics) {
    writer.lengthDelimited(scopeMetricsFields.metrics, metric.length);
    writeMetric(writer, metric);
  }
}

function writeMetric(writer: ProtobufWriter, metric: MeasuredMetric): void {
  writer.bytes(metricFields.name, metric.name);
  writer.lengthDelimited(metricFields.gauge, metric.gaugeLength);
  for (const [index, { timeUnixNano, asDouble }] of metric.points.entries()) {
    const attributes = metric.attributes[index]!;
    writer.lengthDelimited(gaugeFields.dataPoints, pointValueLength + attributes.length);
    writer.fixed64(pointFields.timeUnixNano, timeUnixNano);
    writer.double(pointFields.asDouble, asDouble);
    writer.raw(attributes);
  }
}

/** An ExportMetricsServiceRequest as application/x-protobuf. */
export function otlpProtobufRequest(request: OtlpMetricsRequest): Uint8Array<ArrayBuffer> {
  return new RequestEncoder().encode(request);
}
