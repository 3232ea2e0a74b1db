import { zValidator } from "@hono/zod-validator";
import type { z } from "zod";
import { ApiError, zodProblems } from "../../shared/problems";

/** Validates path parameters; problems are located by the parameter's name (`/id`). */
export function pathParams<S extends z.ZodType>(schema: S) {
  return zValidator("param", schema, (result) => {
    if (!result.success) {
      throw ApiError.validation(zodProblems(result.error), "The path names something that cannot exist.");
    }
  });
}

/** Validates query parameters; problems are located by the parameter's name (`/limit`). */
export function queryParams<S extends z.ZodType>(schema: S) {
  return zValidator("query", schema, (result) => {
    if (!result.success) throw ApiError.validation(zodProblems(result.error), "The query is not valid.");
  });
}
