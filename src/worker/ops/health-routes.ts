import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { jsonAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { healthOf } from "./early-health-answer";
import { healthSchema } from "./health-schema";
import { instanceId } from "./instance-id";

export const healthRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Operations"],
    summary: "Liveness and version",
    description: "Open whatever the authentication settings, also when no token is configured.",
    responses: { 200: jsonAnswer("The service is up.", healthSchema) },
  }),
  // The Worker answers a GET before the app (early-health-answer.ts) once the isolate knows its instance id: the app
  // answers HEAD and the first GET, and describes the route.
  async (c) => c.json(healthOf(await instanceId(c.env))),
);
