import type { Label } from "../../../vocabulary/datum";
import { formatDouble } from "../number-format";
import type { OtlpGauge, OtlpMetricsRequest, OtlpResourceMetrics } from "./otlp-metrics-request";

/*
 * The request in the OTLP JSON encoding, the protobuf JSON mapping of its messages: lowerCamelCase
 * field names, a fixed64 as a decimal string, a double as a JSON number or "NaN", "Infinity",
 * "-Infinity", and empty repeated fields left out. Fields come in the order of their numbers, as in
 * the protobuf encoding. Written as text: JSON.stringify writes -0 as 0.
 */

const jsonNonFinite = { nan: '"NaN"', infinity: '"Infinity"', negativeInfinity: '"-Infinity"' };

/** `"attributes":[…]` for labels, or nothing for none. */
function attributesMember(labels: readonly Label[]): string {
  if (labels.length === 0) return "";
  const keyValues = labels.map(
    ([key, value]) => `{"key":${JSON.stringify(key)},"value":{"stringValue":${JSON.stringify(value)}}}`,
  );
  return `"attributes":[${keyValues.join(",")}]`;
}

/** One request's writing: each points' attribute set written once, however many points share it. */
class RequestWriter {
  private readonly pointAttributes = new Map<readonly Label[], string>();

  write({ resourceMetrics }: OtlpMetricsRequest): string {
    return `{"resourceMetrics":[${resourceMetrics.map((resource) => this.resourceMetrics(resource)).join(",")}]}`;
  }

  private resourceMetrics({ resource, scope, metrics }: OtlpResourceMetrics): string {
    const resourceMember = resource.length === 0 ? "" : `"resource":{${attributesMember(resource)}},`;
    const scopeMetrics = `{"scope":{"name":${JSON.stringify(scope)}},"metrics":[${metrics.map((metric) => this.metric(metric)).join(",")}]}`;
    return `{${resourceMember}"scopeMetrics":[${scopeMetrics}]}`;
  }

  private metric({ name, dataPoints }: OtlpGauge): string {
    const points = dataPoints.map(({ attributes, timeUnixNano, asDouble }) => {
      const value = formatDouble(asDouble, jsonNonFinite);
      const members = `"timeUnixNano":"${timeUnixNano}","asDouble":${value}`;
      const attributesText = this.attributesOfPoint(attributes);
      return attributesText === "" ? `{${members}}` : `{${members},${attributesText}}`;
    });
    return `{"name":${JSON.stringify(name)},"gauge":{"dataPoints":[${points.join(",")}]}}`;
  }

  private attributesOfPoint(labels: readonly Label[]): string {
    let text = this.pointAttributes.get(labels);
    if (text === undefined) {
      text = attributesMember(labels);
      this.pointAttributes.set(labels, text);
    }
    return text;
  }
}

/** An ExportMetricsServiceRequest as application/json. */
export function otlpJsonRequest(request: OtlpMetricsRequest): string {
  return new RequestWriter().write(request);
}
