import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { assertJsonDepth, parseJsonText } from "../../../shared/http/json-text";
import { ApiError } from "../../../shared/problems";
import { utf8BodyText } from "../../../shared/utf8";
import { answered } from "../../http/answers";
import type { AppEnv } from "../../http/app-env";
import { checkVia, loopRefusalDescription } from "../../http/loop-check";
import { acceptReading, agentHandler, describeRefusals } from "../common/agent-intake";
import { decodedBody } from "../common/decompress";
import { ProtobufError } from "../common/protobuf-reader";
import {
  agentLimitsDescription,
  agentUnauthorizedAnswer,
  overloadAnswer,
  seriesKeyParameters,
} from "../common/route-documentation";
import { exportResponseJson, exportResponseProtobuf, type PartialSuccess } from "./export-response";
import { readMetricsJson } from "./metrics-json";
import type { OtlpMetricsResult } from "./metrics-mapping";
import { readMetricsProtobuf } from "./metrics-protobuf";
import { OtlpBodyError } from "./otlp-body-error";
import { type Encoding, encodingOf, jsonType, protobufType, statusAnswer } from "./status-answer";

/** The resource attributes that name a series' resource, the first present wins. */
const primaryAttributes = ["service.instance.id", "host.name", "service.name"];

function readRequest(encoding: Encoding, body: Uint8Array, maxPoints: number): OtlpMetricsResult {
  const arrivalMs = Date.now();
  try {
    if (encoding === "protobuf") return readMetricsProtobuf(body, arrivalMs, maxPoints);
    const text = utf8BodyText(body);
    if (text === undefined) throw new OtlpBodyError("the body is not valid UTF-8");
    const value = parseJsonText(text);
    assertJsonDepth(value);
    return readMetricsJson(value, arrivalMs, maxPoints);
  } catch (error) {
    if (error instanceof ProtobufError || error instanceof OtlpBodyError) {
      throw new ApiError(
        "validation-failed",
        `The body is not an OTLP metrics export request: ${error.message}; nothing was accepted.`,
      );
    }
    if (error instanceof ApiError) {
      throw new ApiError("validation-failed", `${error.message} Nothing was accepted.`);
    }
    throw error;
  }
}

/** The contract's refusals, those of the reader first (they name their metric and point), then the mapping's. */
function partialSuccessOf(
  reading: OtlpMetricsResult,
  outcome: { refused: { origin: number; message: string }[]; refusedTotal: number },
): PartialSuccess | undefined {
  if (outcome.refused.length === 0 && outcome.refusedTotal === 0) return undefined;
  const fromMapping = outcome.refused
    .slice(reading.refused.length)
    .map(({ origin, message }) => ({ origin, message: `data point ${origin}: ${message}` }));
  const described = [...reading.refused, ...fromMapping];
  return {
    rejectedDataPoints: outcome.refusedTotal,
    errorMessage: describeRefusals(described, Math.max(outcome.refusedTotal, described.length)),
  };
}

const partialSuccessSchema = z
  .strictObject({
    partialSuccess: z
      .strictObject({
        rejectedDataPoints: z.string().optional().meta({ description: "How many data points were rejected (int64)." }),
        errorMessage: z.string().optional(),
      })
      .optional(),
  })
  .meta({ id: "OtlpExportMetricsResponse", description: "OTLP's ExportMetricsServiceResponse, JSON encoding." });

const statusSchema = z
  .strictObject({ code: z.int(), message: z.string() })
  .meta({ id: "RpcStatus", description: "An OTLP error: a google.rpc.Status, JSON encoding." });

const statusContent = {
  [jsonType]: { schema: answered(statusSchema) },
  [protobufType]: { schema: { type: "string" as const, format: "binary" } },
  "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } },
};

const statusAnswerDoc = (description: string) => ({ description, content: statusContent });

/** POST /otlp/v1/metrics: OTLP/HTTP metrics, protobuf or JSON. */
export const otlpMetricsRoutes = new Hono<AppEnv>().post(
  "/",
  describeRoute({
    tags: ["Intake from agents"],
    summary: "OpenTelemetry metrics (OTLP/HTTP)",
    description:
      "For the OpenTelemetry SDKs and Collector (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT = this URL). Gauges and sums are " +
      "data of the metric's name; histograms give .count, .sum, .min, .max and .bucket (labelled le, cumulative); " +
      "summaries .count, .sum and the name labelled quantile. resourceId: the resource's service.instance.id, " +
      "host.name or service.name, then the point's attributes sorted.",
    parameters: seriesKeyParameters(
      "attributes (of the point, then of the resource)",
      "`service.instance.id`, `host.name`, `service.name`",
    ),
    requestBody: {
      required: false,
      description: "An ExportMetricsServiceRequest, optionally with Content-Encoding: gzip.",
      content: {
        [protobufType]: { schema: { type: "string", format: "binary" } },
        [jsonType]: { schema: { type: "object" } },
      },
    },
    responses: {
      200: {
        description:
          "Accepted: every valid data point's data are on the durable intake queue. partialSuccess says how many data " +
          "points were rejected and why; it is absent when none were. In the request's encoding.",
        content: {
          [jsonType]: { schema: answered(partialSuccessSchema) },
          [protobufType]: { schema: { type: "string", format: "binary" } },
        },
      },
      400: statusAnswerDoc("The body is not an export request in its encoding: nothing was accepted."),
      401: agentUnauthorizedAnswer(statusContent),
      413: statusAnswerDoc(agentLimitsDescription),
      415: statusAnswerDoc(
        "A Content-Type other than application/x-protobuf or application/json, or a Content-Encoding other than gzip.",
      ),
      503: overloadAnswer(statusContent),
      508: statusAnswerDoc(loopRefusalDescription),
    },
  }),
  (c, next) => {
    const encoding = encodingOf(c.req.header("content-type"));
    const handle = agentHandler(statusAnswer(encoding ?? "json"), async () => {
      await checkVia(c, "/otlp/v1/metrics");
      if (encoding === undefined) {
        throw new ApiError(
          "unsupported-media-type",
          `Content-Type ${c.req.header("content-type") ?? "(none)"} is not OTLP's: send ${protobufType} or ${jsonType}.`,
        );
      }
      const config = c.get("config");
      const body = await decodedBody(c.req.raw, config.MAX_DECOMPRESSED_BYTES);
      const reading = readRequest(encoding, body, config.MAX_AGENT_DATA_PER_REQUEST);
      const outcome = await acceptReading(
        c,
        "/otlp/v1/metrics",
        { ...reading, refusedTotal: reading.rejectedDataPoints },
        primaryAttributes,
      );
      const partial = partialSuccessOf(reading, outcome);
      return encoding === "protobuf"
        ? c.body(exportResponseProtobuf(partial), 200, { "content-type": protobufType })
        : c.body(exportResponseJson(partial), 200, { "content-type": jsonType });
    });
    return handle(c, next);
  },
);
