import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { ApiError } from "../../../shared/problems";
import { utf8BodyText } from "../../../shared/utf8";
import type { IntakeRoute } from "../../common/usage";
import { answered, emptyAnswer, problemReference } from "../../http/answers";
import type { AppEnv } from "../../http/app-env";
import { checkVia, loopRefusalDescription } from "../../http/loop-check";
import { acceptReading, agentHandler, describeRefusals, type ErrorAnswer } from "../common/agent-intake";
import { decodedBody } from "../common/decompress";
import {
  agentLimitsDescription,
  agentUnauthorizedAnswer,
  overloadAnswer,
  seriesKeyParameters,
} from "../common/route-documentation";
import { influxV1Error, influxV1ErrorSchema, influxV2Error, influxV2ErrorSchema } from "./influx-answers";
import { type LinePrecision, parseLineProtocol } from "./parser";
import { v1Precision, v1PrecisionNames, v2Precision, v2PrecisionNames } from "./precision";

/** Without a `host` tag or a `resource=` parameter, a line's resourceId is its sorted tags. */
const primaryTags = ["host"];

function bodyText(bytes: Uint8Array): string {
  const text = utf8BodyText(bytes);
  if (text === undefined) throw new ApiError("validation-failed", "The body is not valid UTF-8; nothing was accepted.");
  return text;
}

/**
 * A write: every valid line accepted, 204 when all were; else 400 naming the first refused lines
 * (InfluxDB's "partial write"), the valid lines accepted all the same.
 */
function writeHandler(
  route: IntakeRoute,
  precisionOf: (given: string | undefined) => LinePrecision,
  answer: ErrorAnswer,
) {
  return agentHandler(answer, async (c) => {
    await checkVia(c, route);
    const config = c.get("config");
    const precision = precisionOf(c.req.query("precision"));
    const text = bodyText(await decodedBody(c.req.raw, config.MAX_DECOMPRESSED_BYTES));
    const parsed = parseLineProtocol(text, precision, Date.now(), config.MAX_AGENT_DATA_PER_REQUEST);
    const outcome = await acceptReading(c, route, { ...parsed, refusedTotal: parsed.refusedLines }, primaryTags);
    if (outcome.refusedTotal === 0) return c.body(null, 204);
    const refusals = describeRefusals(outcome.refused, outcome.refusedTotal, "line");
    throw new ApiError(
      "validation-failed",
      outcome.accepted > 0
        ? `partial write: ${refusals}; the other lines' ${outcome.accepted} data were accepted`
        : `unable to parse: ${refusals}; nothing was accepted`,
    );
  });
}

const lineProtocolBody = {
  required: false,
  description:
    "InfluxDB line protocol, one point a line (`cpu,host=vm1 usage_idle=90 1700000000000000000`), optionally " +
    "with Content-Encoding: gzip.",
  content: { "text/plain": { schema: { type: "string" as const } } },
};

const query = (name: string, description: string, values?: readonly string[]) => ({
  name,
  in: "query" as const,
  required: false,
  description,
  schema: values ? { type: "string" as const, enum: [...values] } : { type: "string" as const },
});

const keyParameters = seriesKeyParameters("tags", "`host`");

/** An error in the API's own shape, or as a problem when the middleware before the route answered. */
function errorContent(schema: typeof influxV1ErrorSchema | typeof influxV2ErrorSchema) {
  return {
    "application/json": { schema: answered(schema) },
    "application/problem+json": { schema: problemReference },
  };
}

function writeAnswers(schema: typeof influxV1ErrorSchema | typeof influxV2ErrorSchema) {
  const errorAnswer = (description: string) => ({ description, content: errorContent(schema) });
  return {
    204: emptyAnswer("Every line was accepted: its data are on the durable intake queue."),
    400: errorAnswer(
      "Some lines were refused (`partial write`: the others were accepted; the message names the first refused " +
        "lines and why), or the body could not be read at all (bad gzip, not UTF-8, an unknown precision: nothing " +
        "was accepted).",
    ),
    401: agentUnauthorizedAnswer(errorContent(schema)),
    413: errorAnswer(agentLimitsDescription),
    415: errorAnswer("A Content-Encoding other than gzip."),
    503: overloadAnswer(errorContent(schema)),
    508: errorAnswer(loopRefusalDescription),
  };
}

/** POST /write: the InfluxDB 1.x write API. Its success is exactly 204: Telegraf resends a batch answered 200. */
export const influxV1WriteRoutes = new Hono<AppEnv>().post(
  "/",
  describeRoute({
    tags: ["Intake from agents"],
    summary: "Write line protocol (InfluxDB 1.x API)",
    description:
      "For Telegraf's outputs.influxdb and other InfluxDB 1.x clients. Each field of a line is a datum: metric " +
      "`<measurement>.<field>` (`<measurement>` for a field named `value`), resourceId the `host` tag's value then " +
      "the other tags sorted, `,key=value` each. String fields are skipped. The token may also come as `p=` or " +
      "Basic credentials.",
    parameters: [
      query("db", "Accepted and ignored: this service keeps no databases."),
      query("rp", "Accepted and ignored."),
      query("precision", "The timestamps' unit (default `ns`).", v1PrecisionNames),
      query("u", "Accepted and ignored (the user of `p`)."),
      query("p", "The ingest or admin token, for clients that cannot send a header."),
      ...keyParameters,
    ],
    requestBody: lineProtocolBody,
    responses: writeAnswers(influxV1ErrorSchema),
  }),
  writeHandler("/write", v1Precision, influxV1Error),
);

/** POST /api/v2/write: the InfluxDB 2.x write API. */
export const influxV2WriteRoutes = new Hono<AppEnv>().post(
  "/",
  describeRoute({
    tags: ["Intake from agents"],
    summary: "Write line protocol (InfluxDB 2.x API)",
    description:
      "For Telegraf's outputs.influxdb_v2 and the InfluxDB 2.x client libraries; the same mapping as /write. The " +
      "token goes in `Authorization: Token <token>` (or Bearer).",
    parameters: [
      query("org", "Accepted and ignored."),
      query("bucket", "Accepted and ignored."),
      query("precision", "The timestamps' unit (default `ns`).", v2PrecisionNames),
      ...keyParameters,
    ],
    requestBody: lineProtocolBody,
    responses: writeAnswers(influxV2ErrorSchema),
  }),
  writeHandler("/api/v2/write", v2Precision, influxV2Error),
);
