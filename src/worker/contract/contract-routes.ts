import { Hono, type Schema } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { answered, jsonAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { docsPage } from "./docs-page";
import { openApiDocument } from "./document";
import { withoutAuthentication } from "./open-document";
import type { OpenApiDocument } from "./openapi-types";

const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\./),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.looseObject({})),
  })
  .meta({ id: "OpenApiDocument", description: "An OpenAPI 3.1 document." });

/** GET /openapi.json and GET /docs: the document of `api`, which holds these routes too, and its page. */
export function contractRoutes(api: Hono<AppEnv, Schema, string>) {
  // The routes do not change while an isolate runs, so the document is built once. The document
  // is kept, not the promise of it, which would be settled in another request's context. Answered
  // typed loosely: its full type would become the typed client's, too large for the Worker's
  // declarations (tools/testing/tsconfig.worker-types.json).
  let document: OpenApiDocument | undefined;
  let openDocument: OpenApiDocument | undefined;
  const documentFor = async (authDisabled: boolean): Promise<OpenApiDocument> => {
    document ??= await openApiDocument(api);
    if (!authDisabled) return document;
    openDocument ??= withoutAuthentication(document);
    return openDocument;
  };
  return new Hono<AppEnv>()
    .get(
      "/openapi.json",
      describeRoute({
        tags: ["API description"],
        summary: "The API's OpenAPI document",
        description: "A service that runs open (AUTH_DISABLED=true) answers it without security requirements.",
        responses: { 200: jsonAnswer("This document.", openApiDocumentSchema) },
      }),
      async (c) => c.json((await documentFor(c.get("config").AUTH_DISABLED)) as Record<string, unknown>),
    )
    .get(
      "/docs",
      describeRoute({
        tags: ["API description"],
        summary: "The API reference page",
        description: "A page for people, rendered from /openapi.json by scripts the service serves itself.",
        responses: { 200: { description: "The page.", content: { "text/html": { schema: answered(z.string()) } } } },
      }),
      (c) => c.html(docsPage),
    );
}
