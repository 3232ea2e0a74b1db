import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { jsonBodyReadByHandler } from "../../../shared/http/json-body";
import { assertJsonDepth, parseJsonText, readBodyText } from "../../../shared/http/json-text";
import { ApiError } from "../../../shared/problems";
import { usage } from "../../common/usage";
import { emptyAnswer, problemAnswer } from "../../http/answers";
import type { AppEnv } from "../../http/app-env";
import { checkVia, loopRefusalDescription } from "../../http/loop-check";
import { settingDefaults } from "../../http/setting-defaults";
import type { Datum } from "../../vocabulary/datum";
import { queueData } from "../accept-data";
import { farFromNow, farFromNowAccepted } from "../far-from-now-count";
import { type MonitoringDataLimits, parseMonitoringData } from "./rdf-json-reader";
import { scanMonitoringData } from "./rdf-json-scanner";
import { monitoringDataSchema } from "./rdf-json-schema";

/**
 * The body's data, all valid: read straight from the text when it has the common shape, else
 * parsed as JSON and read in full, every problem reported.
 */
function readData(text: string, limits: MonitoringDataLimits): Datum[] {
  const scanned = scanMonitoringData(text, limits);
  if (scanned) return scanned;
  // The reader reads the body to a fixed depth: the depth limit is checked only for a body it refuses.
  const body = parseJsonText(text, false);
  const parsed = parseMonitoringData(body, limits);
  if (parsed.ok) return parsed.data;
  if ("tooMany" in parsed) {
    throw new ApiError(
      "payload-too-large",
      `The request holds ${parsed.tooMany} data; at most ${limits.maxData} are accepted per request.`,
    );
  }
  assertJsonDepth(body);
  throw ApiError.validation(parsed.problems, "The monitoring data are not valid; nothing was accepted.");
}

/** Validates the data, registers unknown metrics, and answers 204 once every datum is on the intake queue. */
async function accept(c: Context<AppEnv>): Promise<Response> {
  await checkVia(c, "/monitoringdata");
  const config = c.get("config");
  const data = readData(await readBodyText(c.req.raw), {
    maxData: config.MAX_DATA_PER_REQUEST,
    maxMetricNameLength: config.MAX_METRIC_NAME_LENGTH,
  });
  // Counted before the send, so that the data are not kept while it waits.
  const accepted = data.length;
  const farFromNowData = farFromNow(data, Date.now());
  await queueData(c, data);
  farFromNowAccepted["/monitoringdata"] += farFromNowData;
  usage.dataAccepted += accepted;
  usage.intake["/monitoringdata"].dataAccepted += accepted;
  return c.body(null, 204);
}

/**
 * POST /monitoringdata (and its alias /results): validates every datum, registers unknown metrics,
 * and answers 204 only once every datum is on the intake queue.
 */
export const monitoringDataRoutes = new Hono<AppEnv>().post(
  "/",
  describeRoute({
    tags: ["Monitoring data"],
    summary: "Send monitoring data",
    description:
      "Validated in full before anything happens: one bad datum rejects the whole request. Metrics the data " +
      "name are created. /results is another name for /monitoringdata.",
    responses: {
      204: emptyAnswer("Every datum is on the durable intake queue, to be delivered to its metric's observers."),
      400: problemAnswer(
        "The body is not JSON, or the data are not valid; errors points at each problem. Nothing was accepted.",
      ),
      413: problemAnswer(
        `The body is over MAX_BODY_BYTES (${settingDefaults.MAX_BODY_BYTES}), or holds more than MAX_DATA_PER_REQUEST ` +
          `(${settingDefaults.MAX_DATA_PER_REQUEST}) data, unless configured otherwise.`,
      ),
      503: problemAnswer(
        "The metric store or the intake queue could not be reached, or the service is stopping (then with " +
          "Retry-After): resend the request (unavailable). Or no token is configured and AUTH_DISABLED is not " +
          "true, or the settings are not valid (not-configured).",
      ),
      508: problemAnswer(loopRefusalDescription),
    },
  }),
  // The handler validates the data from the text, faster than zod would; the document shows their schema.
  jsonBodyReadByHandler(monitoringDataSchema),
  (c) => accept(c),
);
