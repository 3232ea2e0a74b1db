import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonBody } from "../../shared/http/json-body";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../app";
import { emptyAnswer, problemAnswer } from "../contract/answers";
import { settingDefaults } from "../contract/setting-defaults";
import { acceptingIntake, isDraining } from "../ops/drain";
import { usage } from "../ops/usage";
import { intakeSender } from "./intake-sender";
import { registerMetrics } from "./metric-registry";
import { parseMonitoringData } from "./rdf-json-reader";
import { monitoringDataSchema } from "./rdf-json-schema";

/**
 * Runs `work`, once more after a short pause if it fails (a passing overload should not cost the
 * client a round trip), then answers 503: the client resends, so nothing accepted is lost. A
 * send that failed after all reached the queue makes a duplicate, which at-least-once allows.
 */
async function unavailable<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (firstError) {
    console.error(
      `intake: ${what} failed, trying again:`,
      firstError instanceof Error ? firstError.message : firstError,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      return await work();
    } catch (error) {
      console.error(`intake: ${what} failed`, error instanceof Error ? error.message : String(error));
      throw new ApiError("unavailable", `The ${what} could not be reached; resend the request.`);
    }
  }
}

/** Validates the data, registers unknown metrics, and answers 204 once every datum is on the intake queue. */
async function accept(c: Context<AppEnv>, body: unknown): Promise<Response> {
  const config = c.get("config");
  const parsed = parseMonitoringData(body, {
    maxData: config.MAX_DATA_PER_REQUEST,
    maxMetricNameLength: config.MAX_METRIC_NAME_LENGTH,
  });
  if (!parsed.ok) {
    if ("tooMany" in parsed) {
      throw new ApiError(
        "payload-too-large",
        `The request holds ${parsed.tooMany} data; at most ${config.MAX_DATA_PER_REQUEST} are accepted per request.`,
      );
    }
    throw ApiError.validation(parsed.problems, "The monitoring data are not valid; nothing was accepted.");
  }
  const { data } = parsed;
  await unavailable("metric store", () => registerMetrics(c.env, new Set(data.map((datum) => datum.metric))));
  const sender = intakeSender(c.env.INTAKE_QUEUE);
  await unavailable("intake queue", () => sender.send(data, (promise) => c.executionCtx.waitUntil(promise)));
  usage.dataAccepted += data.length;
  return c.body(null, 204);
}

/** How long a client is asked to wait while the service stops: a restart takes a few seconds. */
const drainRetryAfterSeconds = 5;

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
    },
  }),
  // The reader below validates the data, faster than zod would; the document shows their schema.
  jsonBody(z.unknown(), monitoringDataSchema),
  (c) => {
    if (isDraining()) {
      throw new ApiError("unavailable", "The service is stopping; send the data again shortly.", {
        headers: { "retry-after": String(drainRetryAfterSeconds) },
      });
    }
    return acceptingIntake(() => accept(c, c.req.valid("json")));
  },
);
