import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { jsonAnswer } from "../contract/answers";
import type { AppEnv } from "../http/app-env";
import { healthSchema } from "./health-schema";
import { serviceVersion } from "./version";

export const healthRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Operations"],
    summary: "Liveness and version",
    description: "Open whatever the authentication settings, also when no token is configured.",
    responses: { 200: jsonAnswer("The service is up.", healthSchema) },
  }),
  (c) => c.json({ status: "ok" as const, version: serviceVersion }),
);
