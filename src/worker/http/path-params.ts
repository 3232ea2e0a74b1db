import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { z } from "zod";
import { ApiError, zodProblems } from "../../shared/problems";
import { takingQuery } from "./query-check";

/**
 * Tags a path-parameter validator as hono-openapi's own validators are tagged, so that the API's
 * document shows `schema`'s fields as the route's path parameters.
 */
export function documentedParams<M extends MiddlewareHandler>(middleware: M, schema: z.ZodType): M {
  return Object.assign(middleware, { [uniqueSymbol]: { target: "param", ...resolver(schema) } });
}

/**
 * Whether the path names what the client meant: no escape of bytes that are not UTF-8 (`%FF`),
 * which the router would keep as its three characters; no U+FFFD, which raw bytes that are not
 * UTF-8 become before the Worker sees them; no `%` that starts no escape.
 */
function isUtf8Path(url: string): boolean {
  try {
    return !decodeURIComponent(new URL(url).pathname).includes("\uFFFD");
  } catch {
    return false;
  }
}

/** Refuses (400) a path that is not UTF-8, rather than alter a name in it to fit. */
export function assertUtf8Path(url: string): void {
  if (!isUtf8Path(url)) {
    throw new ApiError(
      "validation-failed",
      "The path is not valid UTF-8: it holds bytes that are not UTF-8 (raw or percent-encoded), U+FFFD (which " +
        "such bytes become on the way), or a % that starts no escape. A name in it is never altered to fit.",
    );
  }
}

/** Validates path parameters; problems are located by the parameter's name (`/id`). */
export function pathParams<S extends z.ZodType>(schema: S) {
  const middleware = zValidator("param", schema, (result, c) => {
    assertUtf8Path(c.req.url);
    if (!result.success) {
      throw ApiError.validation(zodProblems(result.error), "The path names something that cannot exist.");
    }
  });
  return documentedParams(middleware, schema);
}

/**
 * Validates query parameters; problems are located by the parameter's name (`/limit`). The names
 * of `schema` are the only ones the route takes (see query-check.ts).
 */
export function queryParams<S extends z.ZodObject>(schema: S) {
  const middleware = zValidator("query", schema, (result) => {
    if (!result.success) throw ApiError.validation(zodProblems(result.error), "The query is not valid.");
  });
  const documented = Object.assign(middleware, { [uniqueSymbol]: { target: "query", ...resolver(schema) } });
  return takingQuery(documented, Object.keys(schema.shape));
}
