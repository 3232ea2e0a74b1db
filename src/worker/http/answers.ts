import { resolver } from "hono-openapi";
import type { z } from "zod";

/*
 * How routes describe their answers to hono-openapi: success bodies as zod schemas (read as their
 * output type, what the client receives), errors as problem documents.
 */

/** A zod schema of what the service answers, converted by hono-openapi when the document is built. */
export function answered(schema: z.ZodType) {
  return resolver(schema, { options: { io: "output" } });
}

export function jsonAnswer(description: string, schema: z.ZodType) {
  return { description, content: { "application/json": { schema: answered(schema) } } };
}

export function emptyAnswer(description: string) {
  return { description };
}

/** The Problem component, which the document builder adds from problem-schema.ts. */
export const problemReference = { $ref: "#/components/schemas/Problem" };

export function problemAnswer(description: string) {
  return { description, content: { "application/problem+json": { schema: problemReference } } };
}
