import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { z } from "zod";
import { ApiError, zodProblems } from "../../shared/problems";

/**
 * Tags a path-parameter validator as hono-openapi's own validators are tagged, so that the API's
 * document shows `schema`'s fields as the route's path parameters.
 */
export function documentedParams<M extends MiddlewareHandler>(middleware: M, schema: z.ZodType): M {
  return Object.assign(middleware, { [uniqueSymbol]: { target: "param", ...resolver(schema) } });
}

/** Validates path parameters; problems are located by the parameter's name (`/id`). */
export function pathParams<S extends z.ZodType>(schema: S) {
  const middleware = zValidator("param", schema, (result) => {
    if (!result.success) {
      throw ApiError.validation(zodProblems(result.error), "The path names something that cannot exist.");
    }
  });
  return documentedParams(middleware, schema);
}

/** Validates query parameters; problems are located by the parameter's name (`/limit`). */
export function queryParams<S extends z.ZodType>(schema: S) {
  const middleware = zValidator("query", schema, (result) => {
    if (!result.success) throw ApiError.validation(zodProblems(result.error), "The query is not valid.");
  });
  return Object.assign(middleware, { [uniqueSymbol]: { target: "query", ...resolver(schema) } });
}
