import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import type { AppEnv } from "../../http/app-env";
import { prometheusContentType, renderExposition } from "./exposition";
import { serviceStateFamilies } from "./service-state";

/** GET /prometheus: the service's own state for a Prometheus scrape (admin). */
export const prometheusRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Operations"],
    summary: "The service's own state, for Prometheus",
    description:
      "Prometheus text exposition: per metric the data accepted; per observer delivered, failed, dead, dropped, " +
      "backlog, oldest backlog age and state; per rule windows evaluated and data read, emitted and late. " +
      "A scrape reads every metric's and rule's object.",
    responses: {
      200: {
        description: "The exposition (text format 0.0.4).",
        content: { "text/plain": { schema: { type: "string" } } },
      },
    },
  }),
  async (c) =>
    c.body(renderExposition(await serviceStateFamilies(c.env)), 200, { "content-type": prometheusContentType }),
);
