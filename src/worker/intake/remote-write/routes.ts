import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { ApiError } from "../../../shared/problems";
import { emptyAnswer, problemReference } from "../../http/answers";
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
import { remoteWriteError } from "./remote-write-error";
import { decodeSnappyBlock, SnappyError } from "./snappy";
import { readWriteRequest } from "./write-request";

/** Without an `instance` label or a `resource=` parameter, a series' resourceId is its sorted labels. */
const primaryLabels = ["instance"];

/**
 * Only remote write 1.0's message: `application/x-protobuf`, with no `proto` parameter or
 * `proto=prometheus.WriteRequest`. Remote write 2.0 names its other message in that parameter.
 */
function assertVersion1(contentType: string | undefined): void {
  if (contentType === undefined) return;
  const [mediaType, ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase());
  const proto = parameters.find((parameter) => parameter.startsWith("proto="))?.slice("proto=".length);
  if (mediaType === "application/x-protobuf" && (proto === undefined || proto === "prometheus.writerequest")) return;
  throw new ApiError(
    "unsupported-media-type",
    `Content-Type ${contentType} is not remote write 1.0 (application/x-protobuf, a prometheus.WriteRequest); ` +
      "configure the sender for remote write 1.0 (Prometheus: protobuf_message: prometheus.WriteRequest).",
  );
}

function snappy(bytes: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return decodeSnappyBlock(bytes, maxBytes);
  } catch (error) {
    if (!(error instanceof SnappyError)) throw error;
    if (error.tooLarge) {
      throw new ApiError("payload-too-large", `The body is too large once decompressed: ${error.message}.`);
    }
    throw new ApiError(
      "validation-failed",
      `The body is not valid snappy (block format): ${error.message}; nothing was accepted.`,
    );
  }
}

function writeRequest(body: Uint8Array, maxPoints: number) {
  try {
    return readWriteRequest(body, maxPoints);
  } catch (error) {
    if (!(error instanceof ProtobufError)) throw error;
    throw new ApiError(
      "validation-failed",
      `The body is not a remote write WriteRequest: ${error.message}; nothing was accepted.`,
    );
  }
}

const textContent = {
  "text/plain": { schema: { type: "string" as const } },
  "application/problem+json": { schema: problemReference },
};

const textAnswer = (description: string) => ({ description, content: textContent });

/** POST /api/v1/write: Prometheus remote write 1.0. */
export const remoteWriteRoutes = new Hono<AppEnv>().post(
  "/",
  describeRoute({
    tags: ["Intake from agents"],
    summary: "Prometheus remote write 1.0",
    description:
      "For Prometheus (also in agent mode), vmagent, Grafana Alloy and other remote-write senders. Each sample is " +
      "a datum: metric the `__name__` label, resourceId the `instance` label's value then the other labels sorted, " +
      "`,key=value` each. Stale markers are skipped and counted; native histograms are refused.",
    parameters: seriesKeyParameters("labels", "`instance`"),
    requestBody: {
      required: false,
      description: "A protobuf WriteRequest, compressed in snappy's block format (Content-Encoding: snappy).",
      content: { "application/x-protobuf": { schema: { type: "string", format: "binary" } } },
    },
    responses: {
      204: emptyAnswer("Every sample was accepted: its data are on the durable intake queue."),
      400: textAnswer(
        "Some series were refused (the others were accepted; the text names the first and why), or the body is not " +
          "valid snappy or not a WriteRequest (nothing was accepted).",
      ),
      401: agentUnauthorizedAnswer(textContent),
      413: textAnswer(agentLimitsDescription),
      415: textAnswer(
        "Remote write 2.0's message, another content type, or a Content-Encoding other than snappy or gzip.",
      ),
      503: overloadAnswer(textContent),
      508: textAnswer(loopRefusalDescription),
    },
  }),
  agentHandler(remoteWriteError, async (c) => {
    await checkVia(c, "/api/v1/write");
    const config = c.get("config");
    assertVersion1(c.req.header("content-type"));
    const body = await decodedBody(c.req.raw, config.MAX_DECOMPRESSED_BYTES, { snappy });
    const reading = writeRequest(body, config.MAX_AGENT_DATA_PER_REQUEST);
    const outcome = await acceptReading(c, "/api/v1/write", reading, primaryLabels);
    if (outcome.refusedTotal === 0) return c.body(null, 204);
    throw new ApiError(
      "validation-failed",
      `${outcome.accepted > 0 ? "partial write" : "nothing accepted"}: ${describeRefusals(outcome.refused, outcome.refusedTotal, "series")}`,
    );
  }),
);
