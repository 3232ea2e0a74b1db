import type { Context } from "hono";
import { validator } from "hono/validator";
import { z } from "zod";
import { ApiError, zodProblems } from "../../shared/problems";
import { problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { assertUtf8Path, documentedParams } from "../http/path-params";
import { metricNameSchema } from "../vocabulary/metric-name";
import { documentedMetricName } from "./metric-schema";

/** Validates the `:id` path segment as a metric name; `c.req.valid("param").id` is the name. */
export const metricNameParam = documentedParams(
  validator("param", (params: Record<string, string>, c: Context<AppEnv>) => {
    assertUtf8Path(c.req.url);
    const result = metricNameSchema(c.get("config").MAX_METRIC_NAME_LENGTH).safeParse(params.id);
    if (!result.success) {
      throw ApiError.validation(zodProblems(result.error, ["id"]), "The metric name in the path is not valid.");
    }
    return { id: result.data };
  }),
  z.object({ id: documentedMetricName }),
);

export function unknownMetric(name: string): ApiError {
  return ApiError.notFound(`There is no metric ${JSON.stringify(name)}.`);
}

export const invalidMetricNameAnswer = problemAnswer("The metric name in the path is not valid (validation-failed).");

export const unknownMetricAnswer = problemAnswer("There is no metric of that name (not-found).");
