import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { ApiError, problemResponse } from "../shared/problems";
import { SettingsError } from "../shared/settings";
import { type Config, readConfig } from "./config";
import { authentication } from "./http/auth";
import { monitoringDataRoutes } from "./intake/routes";
import { metricRoutes } from "./metrics/metric-routes";
import { observerRoutes } from "./metrics/observer-routes";
import { resourceRoutes } from "./model/routes";
import { healthRoutes } from "./ops/health-routes";
import { usageRoutes } from "./ops/usage-routes";

/** The Hono environment shared by every route module. */
export interface AppEnv {
  Bindings: Env;
  Variables: { config: Config };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof SettingsError) {
    return new ApiError("not-configured", `The service's settings are not valid: ${error.problems.join("; ")}.`);
  }
  if (error instanceof HTTPException && (error.status === 400 || error.status === 413)) {
    const code = error.status === 400 ? "malformed-json" : "payload-too-large";
    return new ApiError(code, error.message || "The request could not be processed.");
  }
  console.error("unhandled error", error instanceof Error ? (error.stack ?? error.message) : String(error));
  return new ApiError("internal", "An unexpected error occurred; it has been logged.");
}

/** The routes of the API, mounted both under /v1 and at the root. */
function createApi() {
  return new Hono<AppEnv>()
    .route("/healthz", healthRoutes)
    .route("/metrics", metricRoutes)
    .route("/metrics/:id/observers", observerRoutes)
    .route("/resources", resourceRoutes)
    .route("/monitoringdata", monitoringDataRoutes)
    .route("/results", monitoringDataRoutes)
    .route("/usage", usageRoutes);
}

/** The API's routes and their types, for the typed client (`hc<ApiRoutes>`). */
export type ApiRoutes = ReturnType<typeof createApi>;

/** Builds the Worker's HTTP app: one error path, body limits, and every route under / and /v1. */
export function createApp() {
  const app = new Hono<AppEnv>();
  app.onError((error) => problemResponse(toApiError(error)));
  app.notFound((c) => problemResponse(ApiError.notFound(`No route matches ${c.req.path}.`)));
  // A known path called with another method: 405 with the methods it has, instead of the 404.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        problemResponse(
          new ApiError("method-not-allowed", `${c.req.method} is not allowed on ${c.req.path}.`, {
            headers: { allow: methods.toSorted().join(", ") },
          }),
        ),
    }),
  );
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
        throw new ApiError("payload-too-large", `The body is larger than the limit of ${maxSize} bytes.`);
      },
    })(c, next);
  });

  const api = createApi();
  app.route("/v1", api);
  app.route("/", api);
  return app;
}
