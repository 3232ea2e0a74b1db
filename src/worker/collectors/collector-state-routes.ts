import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { collectorRegistry } from "./collector-registry";
import { configurationsFor } from "./collector-routes";
import { expiryOf } from "./collector-store";
import { collectorStateSchema } from "./collector-view-schema";

const isoTime = (ms: number) => new Date(ms).toISOString();

/**
 * GET /data-collector-states: each registered collector with its current configuration and its
 * timing, for people (the dashboard). Unlike the original's routes, which collectors call, it needs
 * the admin role.
 */
export const collectorStateRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Data collectors"],
    summary: "Every collector with its configuration and timing",
    description: "For people: what each collector registered, what it is asked to send now, and when it expires.",
    responses: { 200: jsonAnswer("The collectors, by id.", z.array(collectorStateSchema)) },
  }),
  async (c) => {
    const collectors = await collectorRegistry(c.env).list();
    const configurations = await configurationsFor(
      c,
      collectors.map((collector) => collector.descriptor),
    );
    return c.json(
      collectors.map((collector, index) => {
        const expiry = expiryOf(collector);
        return {
          id: collector.id,
          descriptor: collector.descriptor,
          configuration: configurations[index]!,
          registeredAt: isoTime(collector.registeredAt),
          lastHeardAt: isoTime(collector.lastHeardAt),
          expiresAt: expiry === null ? null : isoTime(expiry),
        };
      }),
    );
  },
);
