import type { Hono, Schema } from "hono";
import { ALLOWED_METHODS, type GenerateSpecOptions, generateSpecs } from "hono-openapi";
import { answered, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { serviceVersion } from "../ops/version";
import { addCommonAnswers } from "./common-answers";
import type { OpenApiDocument } from "./openapi-types";
import { problemSchema } from "./problem-schema";
import { webhookDocumentation } from "./webhooks";

type Documentation = GenerateSpecOptions["documentation"];

const description = [
  "Monitoring data in, copies out: metrics, the observers that receive their data, and a model of the monitored system.",
  "",
  "Every route is served under /v1 and without a prefix (the two servers), with or without a trailing slash. Every " +
    "route that answers GET answers HEAD; a path that exists but not for the method used answers 405 with an Allow " +
    "header. Request bodies are JSON; errors are application/problem+json (the Problem schema), located by JSON " +
    "pointers. A query parameter a route does not list is refused, except on the agents' routes.",
  "",
  "Besides the API, the service serves static files at the root, open: the dashboard (/ and /ui/…) and the files " +
    "of the reference page (/_docs/…).",
].join("\n");

const tags = [
  { name: "Resources", description: "The model of the monitored system." },
  { name: "Metrics", description: "Named streams of monitoring data." },
  { name: "Observers", description: "Receivers of a metric's data, in a chosen format over a chosen protocol." },
  {
    name: "Monitoring data",
    description: "Data sent to the service, then delivered to the observers of their metric.",
  },
  {
    name: "Data collectors",
    description:
      "The original's data-collector protocol, with its exact status codes. Its collectors send no credentials: " +
      "every route of this tag but /data-collector-states is also served under /c/{token}/ and /c/{token}/v1/, " +
      "with an ingest or admin token as {token}.",
  },
  { name: "Operations", description: "Health and usage of the service." },
  { name: "API description", description: "This document, and a page for people that shows it." },
  { name: "Delivery", description: "What HTTP observers receive at their callbackUrl." },
];

const bearer = {
  type: "http" as const,
  scheme: "bearer",
  description:
    "Tokens of two roles, each configured as a comma-separated list (several tokens allow rotation): admin " +
    "(ADMIN_TOKEN) may call every route; ingest (INGEST_TOKEN) may only send monitoring data. " +
    "AUTH_DISABLED=true turns authentication off, for local development.",
};

/** The keys of a path item that hold operations. */
const methods = ALLOWED_METHODS.map((method) => method.toLowerCase() as Lowercase<typeof method>);

/** The OpenAPI 3.1 document of `api`, the routes the app mounts both under /v1 and at the root. */
export async function openApiDocument(api: Hono<AppEnv, Schema, string>): Promise<OpenApiDocument> {
  const problem = await answered(problemSchema).toOpenAPISchema();
  const delivery = await webhookDocumentation();
  const document = await generateSpecs(api, {
    documentation: {
      openapi: "3.1.0",
      info: { title: "tower-edge", version: serviceVersion, description },
      servers: [
        { url: "/v1", description: "The current version." },
        { url: "/", description: "The same routes without a prefix." },
      ],
      tags,
      security: [{ bearer: ["admin"] }],
      components: {
        // openapi-types gives 3.1 documents 3.0 schema types, which the converted schemas do not fit.
        schemas: { ...problem.components?.schemas, ...delivery.schemas } as NonNullable<
          Documentation["components"]
        >["schemas"],
        parameters: delivery.parameters,
        securitySchemes: { bearer },
      },
      webhooks: delivery.webhooks as Documentation["webhooks"],
    },
    // /openapi.json is a route, not a static file.
    excludeStaticFile: false,
    // Instead of hono-openapi's own validation error body, which is not the one the service answers.
    defaultValidationErrorResponse: problemAnswer("The request is not valid (validation-failed)."),
  });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (operation) addCommonAnswers(path, operation);
    }
  }
  return document;
}
