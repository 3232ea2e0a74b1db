import { z } from "zod";
import { serializerFor } from "../delivery/formats";
import { answered } from "../http/answers";
import { rdfJsonDataSchema, resourceIdLexical } from "../intake/rdf-json/rdf-json-schema";
import { documentedMetricName } from "../metrics/metric-schema";
import { type ObserverFormat, observerFormats } from "../metrics/observer-kinds";
import { monitoringDataNamespace } from "../vocabulary/rdf-vocabulary";

/*
 * What HTTP observers receive: one webhook per format, POSTed to the observer's callbackUrl with
 * the content type its serializer gives. TCP and UDP observers receive the same bytes via the relay.
 */

/** A protobuf body, which JSON Schema describes as bytes only. */
const binaryPayload = (description: string) => ({ type: "string", format: "binary", description });

const payloads: Record<ObserverFormat, z.ZodType | ReturnType<typeof binaryPayload>> = {
  "RDF/JSON": rdfJsonDataSchema([monitoringDataNamespace]).meta({
    id: "RdfJsonPayload",
    description:
      `One subject per datum, keyed by the sender's datum id, its properties in the ${monitoringDataNamespace} ` +
      "namespace. Non-finite values are written NaN, INF and -INF.",
  }),
  "TOWER/JSON": z
    .array(
      z.strictObject({
        resourceId: resourceIdLexical,
        metric: documentedMetricName,
        value: z.number().nullable().meta({ description: "null for NaN and infinities, which JSON cannot hold." }),
        timestamp: z.int().meta({ description: "Milliseconds since the epoch." }),
      }),
    )
    .min(1)
    .meta({ id: "TowerJsonPayload", description: "One object per datum." }),
  GRAPHITE: z
    .string()
    .regex(/^(?:[\w.-]+ \S+ -?\d+\n)+$/)
    .meta({
      id: "GraphitePayload",
      description:
        "Carbon's plaintext protocol, one line per datum: `<resourceId>.<metric> <value> <seconds>`. In the path " +
        "every character other than A-Z a-z 0-9 _ . - becomes _; non-finite values are nan, inf, -inf.",
      examples: ["frontend_1.cpu 0.11416644992590952 1409223851\nvm_2.cpu -3 1409223852\n"],
    }),
  INFLUXDB: z
    .string()
    .regex(/^(?:\S.* \S+ -?\d+\n)+$/)
    .meta({
      id: "InfluxDbPayload",
      description:
        "InfluxDB line protocol. Data that came as line protocol go out as the points they were (measurement, tags " +
        "sorted, fields with their types, the fields of one series and time in one line); other data with labels as " +
        "`<metric>,<labels> value=<value> <nanoseconds>`; data without labels as " +
        "`<metric>,resourceId=<resourceId> value=<value> <nanoseconds>`. Data without a valid line (non-finite " +
        "values, times outside 1677-2262, …) are left out.",
      examples: [
        "cpu,resourceId=frontend\\ 1 value=0.11416644992590952 1409223851698000000\n",
        "cpu,cpu=cpu0,host=vm1 usage_idle=90,usage_user=4i 1409223851698000000\n",
      ],
    }),
  PROMETHEUS: binaryPayload(
    "Prometheus remote write 1.0: a snappy-compressed (block format) protobuf WriteRequest, with " +
      "Content-Encoding: snappy and X-Prometheus-Remote-Write-Version: 0.1.0; at most 2,000 samples a request.",
  ),
  OTLP: binaryPayload(
    "An OTLP/HTTP ExportMetricsServiceRequest in protobuf: each datum a gauge data point of a metric of its name, " +
      "its labels as attributes (resource=<resourceId> for data without labels).",
  ),
  "OTLP/JSON": z.strictObject({ resourceMetrics: z.array(z.looseObject({})) }).meta({
    id: "OtlpJsonPayload",
    description: "The same ExportMetricsServiceRequest as OTLP, in the OTLP JSON mapping.",
  }),
};

const header = (name: string, required: boolean, description: string, pattern: string) => ({
  in: "header" as const,
  name,
  required,
  description,
  schema: { type: "string" as const, pattern },
});

/** Standard Webhooks headers, sent when the observer has a secret, and the service's User-Agent. */
const headers = {
  UserAgent: header("user-agent", true, "tower-edge/<version>.", "^tower-edge/"),
  WebhookId: header(
    "webhook-id",
    false,
    "msg_<uuid>, the same for every attempt of a payload. Only when the observer has a secret.",
    "^msg_",
  ),
  WebhookTimestamp: header(
    "webhook-timestamp",
    false,
    "Unix time in seconds at which this attempt was signed. Only when the observer has a secret.",
    "^\\d+$",
  ),
  WebhookSignature: header(
    "webhook-signature",
    false,
    "v1, then base64(HMAC-SHA256(key, <webhook-id>.<webhook-timestamp>.<body>)); the key is the secret " +
      "(base64-decoded when it is whsec_<base64>). Only when the observer has a secret.",
    "^v1,",
  ),
};

const answers = {
  "2XX": { description: "Delivered; the body is ignored." },
  "410": { description: "Gone: the observer is removed; the payload's data are dropped." },
  default: {
    description:
      "Any other answer (a redirect included), no answer within DELIVERY_TIMEOUT_MS, or a network error: " +
      "the delivery failed and is retried up to DELIVERY_MAX_ATTEMPTS attempts.",
  },
};

/** The document's `webhooks`, one per format and named by it, with the schemas and headers they refer to. */
export async function webhookDocumentation() {
  const webhooks: Record<string, object> = {};
  let schemas: Record<string, object> = {};
  for (const format of observerFormats) {
    const payload = payloads[format];
    const converted =
      payload instanceof z.ZodType
        ? await answered(payload).toOpenAPISchema()
        : { schema: payload, components: undefined };
    schemas = { ...schemas, ...converted.components?.schemas };
    webhooks[format] = {
      post: {
        operationId: `${format.replace("/", "").toLowerCase()}Delivery`,
        summary: `${format} delivery`,
        tags: ["Delivery"],
        // Sent by the service; the observer decides whom it trusts (see webhook-signature).
        security: [],
        parameters: Object.keys(headers).map((key) => ({ $ref: `#/components/parameters/${key}` })),
        requestBody: { required: true, content: { [serializerFor(format).contentType]: { schema: converted.schema } } },
        responses: answers,
      },
    };
  }
  return { webhooks, schemas, parameters: headers };
}
