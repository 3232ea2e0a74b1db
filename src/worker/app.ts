import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { allowedMethodsResolver } from "./allowed-methods";
import type { AppEnv } from "./app-env";
import { readConfig } from "./config";
import { ApiError, problemResponse } from "../shared/problems";
import { authentication } from "./middleware/auth";
import { healthRoutes } from "./routes/health";
import { metricRoutes } from "./routes/metrics";
import { monitoringDataRoutes } from "./routes/monitoring-data";
import { observerRoutes } from "./routes/observers";
import { resourceRoutes } from "./routes/resources";
import { usageRoutes } from "./routes/usage";

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    const code = error.status === 400 ? "malformed-json" : error.status === 413 ? "payload-too-large" : "internal";
    return new ApiError(error.status, code, error.message || "The request could not be processed.");
  }
  console.error("unhandled error", error instanceof Error ? (error.stack ?? error.message) : String(error));
  return new ApiError(500, "internal", "An unexpected error occurred; it has been logged.");
}

/** The routes of the API, mounted both under /v1 and at the root. */
function createApi(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route("/healthz", healthRoutes)
    .route("/metrics", metricRoutes)
    .route("/metrics/:id/observers", observerRoutes)
    .route("/resources", resourceRoutes)
    .route("/monitoringdata", monitoringDataRoutes)
    .route("/results", monitoringDataRoutes)
    .route("/usage", usageRoutes);
}

/** Builds the Worker's HTTP app: one error path, body limits, and every route under / and /v1. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const allowedMethods = allowedMethodsResolver(() => app.routes);

  app.onError((error) => problemResponse(toApiError(error)));
  app.notFound((c) => {
    const allow = allowedMethods(c.req.path);
    if (allow.length > 0) {
      throw new ApiError(405, "method-not-allowed", `${c.req.method} is not allowed on ${c.req.path}.`, undefined, {
        allow: allow.join(", "),
      });
    }
    throw ApiError.notFound(`No route matches ${c.req.path}.`);
  });

  app.use(async (c, next) => {
    c.set("config", readConfig(c.env));
    await next();
  });
  // Before the body limit: a client without a valid token learns nothing, not even the limits.
  app.use(authentication);
  app.use(async (c, next) => {
    const maxSize = c.get("config").MAX_BODY_BYTES;
    return bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, "payload-too-large", `The body is larger than the limit of ${maxSize} bytes.`);
      },
    })(c, next);
  });

  const api = createApi();
  app.route("/v1", api);
  app.route("/", api);
  return app;
}
