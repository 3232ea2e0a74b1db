import { Hono } from "hono";
import type { AppEnv } from "../app";
import { usage } from "./usage";

/** This isolate's platform operations since it started (see usage.ts). */
export const usageRoutes = new Hono<AppEnv>().get("/", (c) => c.json(usage));
