import type { Context } from "hono";
import { validator } from "hono/validator";
import { z } from "zod";
import { didYouMean } from "../../shared/near-miss";
import { ApiError, zodProblems } from "../../shared/problems";
import { problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { assertUtf8Path, documentedParams } from "../http/path-params";
import { metricNameSchema } from "../vocabulary/metric-name";
import { metricCatalogStub } from "./metric-catalog";
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

/**
 * The 404 of a metric that does not exist, with the known name probably meant (`node_load_1` for
 * `node_load1`): the catalog's names are read on this path only.
 */
export async function unknownMetric(env: Env, name: string): Promise<ApiError> {
  const hint = didYouMean(name, await metricCatalogStub(env).names());
  return ApiError.notFound(`There is no metric ${JSON.stringify(name)}${hint === "" ? "." : hint}`);
}

export const invalidMetricNameAnswer = problemAnswer("The metric name in the path is not valid (validation-failed).");

export const unknownMetricAnswer = problemAnswer(
  "There is no metric of that name (not-found); the detail names a known metric of a close name, if any.",
);
