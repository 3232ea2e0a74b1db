import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { readConfig } from "../config";
import { jsonAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { refuseUnknownQuery } from "../http/query-check";
import type { Health } from "./health-schema";
import { healthSchema } from "./health-schema";
import { instanceId } from "./instance-id";
import { serviceVersion } from "./version";

/** The health check's answer of the service `instance`: the same for every request. */
function healthOf(instance: string): Health {
  return { status: "ok", version: serviceVersion, instance };
}

/**
 * GET /healthz, which the app mounts before its middleware (app.ts): so it refuses an unknown
 * query itself, and answers 503 while a setting is not valid, as every route does then.
 */
export const healthRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Operations"],
    summary: "Liveness and version",
    description: "Open whatever the authentication settings, also when no token is configured.",
    responses: { 200: jsonAnswer("The service is up.", healthSchema) },
  }),
  refuseUnknownQuery,
  async (c) => {
    readConfig(c.env);
    return c.json(healthOf(await instanceId(c.env)));
  },
);
