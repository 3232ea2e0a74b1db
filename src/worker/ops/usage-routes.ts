import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { usage } from "../common/usage";
import { jsonAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { usageSchema } from "./usage-schema";

/** This isolate's platform operations since it started (see usage.ts). */
export const usageRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Operations"],
    summary: "Platform operations counted by the answering instance",
    responses: { 200: jsonAnswer("The counts since this instance started.", usageSchema) },
  }),
  (c) => c.json(usage),
);
