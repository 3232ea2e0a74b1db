import type { Context } from "hono";
import { validator } from "hono/validator";
import type { AppEnv } from "../app";
import { ApiError, zodProblems } from "../../shared/problems";
import { metricNameSchema } from "./metric-name";

/** Validates the `:id` path segment as a metric name; `c.req.valid("param").id` is the name. */
export const metricNameParam = validator("param", (params: Record<string, string>, c: Context<AppEnv>) => {
  const result = metricNameSchema(c.get("config").MAX_METRIC_NAME_LENGTH).safeParse(params.id);
  if (!result.success) {
    throw ApiError.validation(zodProblems(result.error, ["id"]), "The metric name in the path is not valid.");
  }
  return { id: result.data };
});

export function unknownMetric(name: string): ApiError {
  return ApiError.notFound(`There is no metric ${JSON.stringify(name)}.`);
}
