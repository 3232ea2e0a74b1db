import type { Env, MiddlewareHandler } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { z } from "zod";
import { ApiError, zodProblems } from "../problems.ts";

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

function isJsonContentType(contentType: string): boolean {
  return jsonMediaType.test(contentType.split(";")[0]!.trim());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError("malformed-json", `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The types a JSON-body validator declares to Hono: what a typed client sends, what handlers read. */
interface JsonInput<S extends z.ZodType> {
  in: { json: z.input<S> };
  out: { json: z.output<S> };
}

/**
 * Validates a JSON request body against `schema`: 415 for a non-JSON content type (a missing one
 * is read as JSON), 400 malformed-json for unparsable text, 400 validation-failed with one entry
 * per problem otherwise. The parsed value is `c.req.valid("json")`.
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
    const contentType = c.req.header("content-type");
    if (contentType && !isJsonContentType(contentType)) {
      throw new ApiError("unsupported-media-type", `Expected application/json, got ${contentType}.`);
    }
    const result = await schema.safeParseAsync(parseJson(await c.req.text()));
    if (!result.success) throw ApiError.validation(zodProblems(result.error));
    c.req.addValidatedData("json", result.data as object);
    await next();
  };
  // The tag hono-openapi's own validators carry: it documents the route's request body.
  return Object.assign(middleware, { [uniqueSymbol]: { target: "json", ...resolver(documented) } });
}
