import { zValidator } from "@hono/zod-validator";
import type { Context } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { ApiError, zodProblems } from "../../shared/problems";

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

/**
 * Validates a JSON request body against `schema`: 415 for a non-JSON content type (a missing one
 * is read as JSON), 400 malformed-json for unparsable text, 400 validation-failed with one entry
 * per problem otherwise. The parsed value is `c.req.valid("json")`.
 */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return validator("json", async (parsedByHono: unknown, c: Context): Promise<z.output<S>> => {
    const contentType = c.req.header("content-type");
    if (contentType && !isJsonContentType(contentType)) {
      throw new ApiError("unsupported-media-type", `Expected application/json, got ${contentType}.`);
    }
    const body = contentType ? parsedByHono : parseJson(await c.req.text());
    const result = await schema.safeParseAsync(body);
    if (!result.success) throw ApiError.validation(zodProblems(result.error));
    return result.data;
  });
}

/** Validates path parameters; problems are located by the parameter's name (`/id`). */
export function pathParams<S extends z.ZodType>(schema: S) {
  return zValidator("param", schema, (result) => {
    if (!result.success) {
      throw ApiError.validation(zodProblems(result.error), "The path names something that cannot exist.");
    }
  });
}
