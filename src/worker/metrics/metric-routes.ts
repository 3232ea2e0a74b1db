import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { optionalJsonBody } from "../../shared/http/json-body";
import { answered, emptyAnswer, jsonAnswer, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { queryParams } from "../http/path-params";
import { forgetMetric } from "../intake/metric-registry";
import { metricCatalogStub } from "./metric-catalog";
import { metricStub } from "./metric-object";
import { invalidMetricNameAnswer, metricNameParam, unknownMetric, unknownMetricAnswer } from "./metric-path";
import {
  documentedMetricName,
  metricDeclarationSchema,
  metricViewSchema,
  recentDataQuerySchema,
  recentDatumSchema,
} from "./metric-schema";

/** /metrics: the catalog of metric names, and declaring, reading and deleting one metric. */
export const metricRoutes = new Hono<AppEnv>()
  .get(
    "/",
    describeRoute({
      tags: ["Metrics"],
      summary: "Names of all metrics",
      responses: { 200: jsonAnswer("Every metric name, sorted by code point.", z.array(documentedMetricName)) },
    }),
    async (c) => c.json(await metricCatalogStub(c.env).names()),
  )
  .put(
    "/:id",
    describeRoute({
      tags: ["Metrics"],
      summary: "Declare a metric, or set its description and unit",
      description: "PUT replaces: a field left out is cleared. Observers are not affected.",
      // Optional: an absent or empty body counts as {}.
      requestBody: { required: false, content: { "application/json": { schema: answered(metricDeclarationSchema) } } },
      responses: {
        200: jsonAnswer("The metric existed; it is answered as it is now.", metricViewSchema),
        201: jsonAnswer("The metric was created.", metricViewSchema),
        400: problemAnswer("The metric name in the path, or the body, is not valid."),
      },
    }),
    metricNameParam,
    optionalJsonBody<typeof metricDeclarationSchema, AppEnv>(metricDeclarationSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const { created, metric } = await metricStub(c.env, id).declareMetric(id, c.req.valid("json"));
      return c.json(metric, created ? 201 : 200);
    },
  )
  .get(
    "/:id",
    describeRoute({
      tags: ["Metrics"],
      summary: "One metric",
      responses: {
        200: jsonAnswer("The metric and its number of observers.", metricViewSchema),
        400: invalidMetricNameAnswer,
        404: unknownMetricAnswer,
      },
    }),
    metricNameParam,
    async (c) => {
      const { id } = c.req.valid("param");
      const metric = await metricStub(c.env, id).describeMetric();
      if (!metric) throw await unknownMetric(c.env, id);
      return c.json(metric);
    },
  )
  .get(
    "/:id/data",
    describeRoute({
      tags: ["Metrics"],
      summary: "The metric's most recent data",
      description:
        "Kept per metric (the last 1,000) and updated once per consumer batch, so data appear once consumed, " +
        "not when the intake answered.",
      responses: {
        200: jsonAnswer("The latest data, newest first.", z.array(recentDatumSchema)),
        400: problemAnswer("The metric name or the limit is not valid (validation-failed)."),
        404: unknownMetricAnswer,
      },
    }),
    metricNameParam,
    queryParams(recentDataQuerySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const rows = await metricStub(c.env, id).recentData(c.req.valid("query").limit);
      if (!rows) throw await unknownMetric(c.env, id);
      return c.json(
        rows.map(([datumId, timestamp, value, resourceId]) => ({ id: datumId, resourceId, value, timestamp })),
      );
    },
  )
  .delete(
    "/:id",
    describeRoute({
      tags: ["Metrics"],
      summary: "Remove a metric and its observers",
      description: "A datum naming the metric that is accepted later creates it again, without observers.",
      responses: { 204: emptyAnswer("Removed."), 400: invalidMetricNameAnswer, 404: unknownMetricAnswer },
    }),
    metricNameParam,
    async (c) => {
      const { id } = c.req.valid("param");
      if (!(await metricStub(c.env, id).deleteMetric())) throw await unknownMetric(c.env, id);
      // Data naming the metric again must re-create it, so this isolate may not skip registering it.
      forgetMetric(id);
      return c.body(null, 204);
    },
  );
