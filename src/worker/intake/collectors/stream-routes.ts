import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonBodyReadByHandler } from "../../../shared/http/json-body";
import { readJson } from "../../../shared/http/json-text";
import { ApiError } from "../../../shared/problems";
import { usage } from "../../common/usage";
import { jsonAnswer, problemAnswer } from "../../http/answers";
import type { AppEnv } from "../../http/app-env";
import { checkVia, loopRefusalDescription } from "../../http/loop-check";
import { pathParams } from "../../http/path-params";
import { settingDefaults } from "../../http/setting-defaults";
import { queueData } from "../accept-data";
import { readStreamData, streamBodySchema } from "./stream-data";

const streamParams = z.object({
  stream: z
    .string()
    .min(1)
    .meta({ description: "The stream, http://www.modaclouds.eu/streams/<metric>, percent-encoded as one segment." }),
});

/** The original's answer, word for word (its spelling included): the collectors read only the status. */
const fed = (stream: string) => `Stream ${stream} succesfully feeded`;

/**
 * POST /streams/:stream: the stream endpoint the original's data collectors send to (the `daUrl`
 * of their configuration). Each element becomes a datum stamped with the time of arrival, and
 * takes the path every datum takes: the intake queue, then observers, rules and backlogs.
 */
export const streamRoutes = new Hono<AppEnv>().post(
  "/:stream",
  describeRoute({
    tags: ["Data collectors"],
    summary: "Send data as the original's data collectors do",
    description:
      "A flat array of {resourceId, metric, value}, each stamped with the time of arrival. Values: numbers as " +
      "they are, booleans as 1 and 0, strings holding a number as that number; other strings are skipped (counted " +
      "in /prometheus). An element of another shape rejects the whole request.",
    responses: {
      200: jsonAnswer(
        'Every datum is on the durable intake queue; the body is the JSON string "Stream <stream> succesfully feeded".',
        z.string(),
      ),
      400: problemAnswer("The body is not JSON, or not an array of such data; errors points at each problem."),
      413: problemAnswer(
        `The body is over MAX_BODY_BYTES (${settingDefaults.MAX_BODY_BYTES}), or holds more than ` +
          `MAX_DATA_PER_REQUEST (${settingDefaults.MAX_DATA_PER_REQUEST}) data, unless configured otherwise.`,
      ),
      503: problemAnswer(
        "The metric store or the intake queue could not be reached, or the service is stopping (then with " +
          "Retry-After). Or no token is configured and AUTH_DISABLED is not true (not-configured).",
      ),
      508: problemAnswer(loopRefusalDescription),
    },
  }),
  pathParams(streamParams),
  jsonBodyReadByHandler(streamBodySchema),
  async (c) => {
    await checkVia(c, "/streams");
    const config = c.get("config");
    const reading = readStreamData(await readJson(c.req.raw), Date.now(), crypto.randomUUID(), {
      maxData: config.MAX_DATA_PER_REQUEST,
      maxMetricNameLength: config.MAX_METRIC_NAME_LENGTH,
    });
    if (!reading.ok) {
      if ("tooMany" in reading) {
        throw new ApiError(
          "payload-too-large",
          `The request holds ${reading.tooMany} data; at most ${config.MAX_DATA_PER_REQUEST} are accepted per request.`,
        );
      }
      throw ApiError.validation(reading.problems, "The data are not valid; nothing was accepted.");
    }
    await queueData(c, reading.data);
    const counts = usage.intake["/streams"];
    counts.dataAccepted += reading.data.length;
    counts.stringFieldsSkipped += reading.skipped;
    usage.dataAccepted += reading.data.length;
    return c.json(fed(c.req.valid("param").stream));
  },
);
