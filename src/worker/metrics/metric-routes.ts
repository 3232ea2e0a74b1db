import { Hono } from "hono";
import type { AppEnv } from "../app";
import { metricStub } from "./metric-object";
import { metricCatalogStub } from "./metric-catalog";
import { forgetMetric } from "../intake/metric-registry";
import { metricDeclarationSchema } from "./metric-schema";
import { optionalJsonBody } from "../../shared/http/json-body";
import { metricNameParam, unknownMetric } from "./metric-path";

/** /metrics: the catalog of metric names, and declaring, reading and deleting one metric. */
export const metricRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await metricCatalogStub(c.env).names()))
  .put("/:id", metricNameParam, optionalJsonBody(metricDeclarationSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { created, metric } = await metricStub(c.env, id).declareMetric(id, c.req.valid("json"));
    return c.json(metric, created ? 201 : 200);
  })
  .get("/:id", metricNameParam, async (c) => {
    const { id } = c.req.valid("param");
    const metric = await metricStub(c.env, id).describeMetric();
    if (!metric) throw unknownMetric(id);
    return c.json(metric);
  })
  .delete("/:id", metricNameParam, async (c) => {
    const { id } = c.req.valid("param");
    if (!(await metricStub(c.env, id).deleteMetric())) throw unknownMetric(id);
    // Data naming the metric again must re-create it, so this isolate may not skip registering it.
    forgetMetric(id);
    return c.body(null, 204);
  });
