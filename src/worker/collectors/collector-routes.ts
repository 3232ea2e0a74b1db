import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { jsonBody } from "../../shared/http/json-body";
import { ApiError } from "../../shared/problems";
import { emptyAnswer, jsonAnswer, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { pathParams } from "../http/path-params";
import { ruleRegistry } from "../rules/rule-registry";
import { collectorConfiguration, requiredMetrics } from "./collector-configuration";
import { collectorRegistry, type Registration } from "./collector-registry";
import {
  collectorConfigurationSchema,
  collectorListSchema,
  registeredSchema,
  requiredMetricsSchema,
} from "./collector-view-schema";
import { collectorIdParams, type Descriptor, descriptorSchema, documentedDescriptorSchema } from "./descriptor-schema";
import { streamAddress, streamBase } from "./stream-address";

const tags = ["Data collectors"];

const unknownCollector = problemAnswer(
  "No collector is registered under that id, or it expired (not-found); the original's collectors then register again with PUT.",
);

const invalidDescriptor = problemAnswer(
  "The body is not a collector's description, or its resources do not fit the model (a resource of no known " +
    "class, a reference to nothing, an id of another class); errors points at each problem. Nothing was registered.",
);

function assertRegistered(registration: Registration): void {
  if (!registration.ok) {
    throw ApiError.validation(
      registration.problems,
      "The collector's description is not valid; nothing was registered.",
    );
  }
}

/** Each collector's configuration from the installed rules, with stream addresses for the request's caller. */
export async function configurationsFor(c: Context<AppEnv>, descriptors: readonly Descriptor[]) {
  const base = streamBase(c.req.url, c.get("config").PUBLIC_URL);
  const collections = await ruleRegistry(c.env).collections();
  return descriptors.map((descriptor) =>
    collectorConfiguration(descriptor.monitoredResourcesByMetric, collections, (metric) => streamAddress(base, metric)),
  );
}

function notRegistered(id: string): ApiError {
  return ApiError.notFound(`No data collector is registered under the id "${id}".`);
}

/**
 * /data-collectors: the original's collector registry, with its exact status codes (its client
 * compares them for equality): registration, keep-alive, configuration, removal.
 */
export const collectorRoutes = new Hono<AppEnv>()
  .post(
    "/",
    describeRoute({
      tags,
      summary: "Register a data collector",
      description: "Its resources are merged into the model (same id: sets united, other fields given replaced).",
      responses: { 201: jsonAnswer("Registered under a new id.", registeredSchema), 400: invalidDescriptor },
    }),
    jsonBody(descriptorSchema, documentedDescriptorSchema),
    async (c) => {
      const id = crypto.randomUUID();
      assertRegistered(await collectorRegistry(c.env).register(id, c.req.valid("json")));
      return c.json({ id }, 201);
    },
  )
  .get(
    "/",
    describeRoute({
      tags,
      summary: "Every registered collector",
      responses: { 200: jsonAnswer("Each collector's description, by id.", collectorListSchema) },
    }),
    async (c) => {
      const collectors = await collectorRegistry(c.env).list();
      return c.json(Object.fromEntries(collectors.map((collector) => [collector.id, collector.descriptor])));
    },
  )
  .put(
    "/:id",
    describeRoute({
      tags,
      summary: "Register a data collector under its id",
      description:
        "Creates or replaces the registration of that id, also one this service never issued: a collector " +
        "registers again under its old id after a 404.",
      responses: { 201: jsonAnswer("Registered under that id.", registeredSchema), 400: invalidDescriptor },
    }),
    pathParams(collectorIdParams),
    jsonBody(descriptorSchema, documentedDescriptorSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      assertRegistered(await collectorRegistry(c.env).register(id, c.req.valid("json")));
      return c.json({ id }, 201);
    },
  )
  .get(
    "/:id",
    describeRoute({
      tags,
      summary: "One collector",
      responses: {
        200: jsonAnswer("The collector's description.", documentedDescriptorSchema),
        404: unknownCollector,
      },
    }),
    pathParams(collectorIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const collector = await collectorRegistry(c.env).get(id);
      if (!collector) throw notRegistered(id);
      return c.json(collector.descriptor);
    },
  )
  .delete(
    "/:id",
    describeRoute({
      tags,
      summary: "Remove a collector",
      description: "Its resources leave the model unless another collector lists them or they were uploaded.",
      responses: { 204: emptyAnswer("Removed."), 404: unknownCollector },
    }),
    pathParams(collectorIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      if (!(await collectorRegistry(c.env).remove(id))) throw notRegistered(id);
      return c.body(null, 204);
    },
  )
  .get(
    "/:id/keepalive",
    describeRoute({
      tags,
      summary: "Keep a collector registered",
      description: "Its resources deleted from the model come back.",
      responses: { 204: emptyAnswer("Registered for another keepAlive seconds."), 404: unknownCollector },
    }),
    pathParams(collectorIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      if (!(await collectorRegistry(c.env).heardFrom(id))) throw notRegistered(id);
      return c.body(null, 204);
    },
  )
  .get(
    "/:id/configuration",
    describeRoute({
      tags,
      summary: "What the collector is to send, from the installed rules",
      description: "Also a keep-alive. Installing or deleting a rule changes it; enabling or disabling one does not.",
      responses: {
        200: jsonAnswer("The configuration, per metric.", collectorConfigurationSchema),
        404: unknownCollector,
      },
    }),
    pathParams(collectorIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const collector = await collectorRegistry(c.env).heardFrom(id);
      if (!collector) throw notRegistered(id);
      const [configuration] = await configurationsFor(c, [collector.descriptor]);
      return c.json(configuration);
    },
  );

/** GET /required-metrics: what the installed rules need from collectors. */
export const requiredMetricsRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags,
    summary: "The metrics collectors must provide",
    responses: { 200: jsonAnswer("Metrics the installed rules read that no rule produces.", requiredMetricsSchema) },
  }),
  async (c) => c.json(requiredMetrics(await ruleRegistry(c.env).collections())),
);
