import type { Env, MiddlewareHandler } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { z } from "zod";
import { ApiError, zodProblems } from "../problems.ts";
import { readJson } from "./json-text.ts";

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

function isJsonContentType(contentType: string): boolean {
  return jsonMediaType.test(contentType.split(";")[0]!.trim());
}

/** The types a JSON-body validator declares to Hono: what a typed client sends, what handlers read. */
interface JsonInput<S extends z.ZodType> {
  in: { json: z.input<S> };
  out: { json: z.output<S> };
}

/** 415 for a content type other than JSON; a missing one is read as JSON. */
function assertJsonContentType(contentType: string | undefined): void {
  if (contentType && !isJsonContentType(contentType)) {
    throw new ApiError("unsupported-media-type", `Expected application/json, got ${contentType}.`);
  }
}

/**
 * Validates a JSON request body against `schema`: 415 for a non-JSON content type (a missing one
 * is read as JSON), 400 malformed-json for a body that is not UTF-8, not JSON or nested too deeply,
 * 400 validation-failed with one entry per problem otherwise. The parsed value is `c.req.valid("json")`.
 *
 * The body is parsed here rather than by `hono/validator`, which answers every parse failure with
 * one fixed message: the client is told where its JSON breaks, whatever its content type says.
 *
 * The API's document (hono-openapi) describes the body with `documented`: `schema` itself, unless
 * the route validates in a way JSON Schema cannot show.
 */
export function jsonBody<S extends z.ZodType, E extends Env = Env>(
  schema: S,
  documented: z.ZodType = schema,
): MiddlewareHandler<E, string, JsonInput<S>> {
  const middleware: MiddlewareHandler<E, string, JsonInput<S>> = async (c, next) => {
    assertJsonContentType(c.req.header("content-type"));
    const result = await schema.safeParseAsync(await readJson(c.req.raw));
    if (!result.success) throw ApiError.validation(zodProblems(result.error));
    c.req.addValidatedData("json", result.data as object);
    await next();
  };
  // The tag hono-openapi's own validators carry: it documents the route's request body.
  return Object.assign(middleware, { [uniqueSymbol]: { target: "json", ...resolver(documented) } });
}

/**
 * For a route whose handler reads the body itself (its text, to validate it without a generic
 * parse): 415 for a content type other than JSON, and `documented` as the body in the API's
 * document and for typed clients.
 */
export function jsonBodyReadByHandler<S extends z.ZodType, E extends Env = Env>(
  documented: S,
): MiddlewareHandler<E, string, { in: { json: z.input<S> } }> {
  const middleware: MiddlewareHandler<E, string, { in: { json: z.input<S> } }> = async (c, next) => {
    assertJsonContentType(c.req.header("content-type"));
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target: "json", ...resolver(documented) } });
}

/** What a client may send (no body at all) and what the handler reads (a body, `{}` when none was sent). */
interface OptionalJsonInput<S extends z.ZodType> {
  in: { json?: z.input<S> };
  out: { json: z.output<S> };
}

/** Like `jsonBody`, but a request without a body counts as `{}`. */
export function optionalJsonBody<S extends z.ZodType, E extends Env = Env>(
  schema: S,
): MiddlewareHandler<E, string, OptionalJsonInput<S>> {
  const validateBody = jsonBody<S, E>(schema);
  const middleware: MiddlewareHandler<E, string, OptionalJsonInput<S>> = async (c, next) => {
    const hasBody = c.req.raw.body !== null && c.req.header("content-length") !== "0";
    if (hasBody) return validateBody(c, next);
    c.req.addValidatedData("json", schema.parse({}) as object);
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target: "json", ...resolver(schema) } });
}
