import { Hono } from "hono";
import type { AppEnv } from "../app";
import { serviceVersion } from "./version";

export const healthRoutes = new Hono<AppEnv>().get("/", (c) => c.json({ status: "ok", version: serviceVersion }));
