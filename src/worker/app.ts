import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { problemBodyLimit } from "../shared/http/body-limit";
import { problemOnError, problemOnMethodNotAllowed, problemOnNotFound } from "../shared/http/problem-handlers";
import { ApiError } from "../shared/problems";
import { SettingsError } from "../shared/settings";
import { collectorRoutes, requiredMetricsRoutes } from "./collectors/collector-routes";
import { collectorStateRoutes } from "./collectors/collector-state-routes";
import { readConfig } from "./config";
import { contractRoutes } from "./contract/contract-routes";
import { docsAsset } from "./contract/docs-assets";
import { dashboardRoutes } from "./dashboard/dashboard-routes";
import type { AppEnv } from "./http/app-env";
import { authentication } from "./http/auth";
import { misdirectedAgentHint } from "./http/misdirected-agent";
import { refuseUnknownQuery } from "./http/query-check";
import { streamRoutes } from "./intake/collectors/stream-routes";
import { agentRefusals } from "./intake/common/agent-refusals";
import { pingRoutes, queryRoutes } from "./intake/line-protocol/handshake-routes";
import { influxV1WriteRoutes, influxV2WriteRoutes } from "./intake/line-protocol/write-routes";
import { otlpMetricsRoutes } from "./intake/otlp/routes";
import { monitoringDataRoutes } from "./intake/rdf-json/routes";
import { remoteWriteRoutes } from "./intake/remote-write/routes";
import { metricRoutes } from "./metrics/metric-routes";
import { observerRoutes } from "./metrics/observer-routes";
import { resourceRoutes } from "./model/routes";
import { selectorObserverRoutes } from "./observers/observer-routes";
import { healthRoutes } from "./ops/health-routes";
import { prometheusRoutes } from "./ops/prometheus/prometheus-routes";
import { usageRoutes } from "./ops/usage-routes";
import { ruleRoutes } from "./rules/rule-routes";
import { summaryRoutes } from "./summary/summary-routes";

const problemAnswer = problemOnError("unhandled error");

function onError(error: Error): Response {
  if (error instanceof SettingsError) {
    const detail = `The service's settings are not valid, and it serves nothing until they are fixed: ${error.problems.join("; ")}.`;
    return problemAnswer(new ApiError("not-configured", detail));
  }
  return problemAnswer(error);
}

/**
 * The original's data-collector protocol, which its collectors also reach with the token in the
 * path (`/c/<token>/…`, see auth.ts), since they send no credentials.
 */
function collectorProtocol() {
  return new Hono<AppEnv>()
    .route("/data-collectors", collectorRoutes)
    .route("/streams", streamRoutes)
    .route("/required-metrics", requiredMetricsRoutes);
}

/** The routes of the API, mounted both under /v1 and at the root. */
function createApi() {
  const api = new Hono<AppEnv>()
    .use(refuseUnknownQuery)
    .route("/healthz", healthRoutes)
    .route("/metrics", metricRoutes)
    .route("/metrics/:id/observers", observerRoutes)
    .route("/observers", selectorObserverRoutes)
    .route("/resources", resourceRoutes)
    .route("/monitoring-rules", ruleRoutes)
    .route("/monitoringdata", monitoringDataRoutes)
    .route("/prometheus", prometheusRoutes)
    .route("/results", monitoringDataRoutes)
    .route("/summary", summaryRoutes)
    .route("/usage", usageRoutes)
    .route("/write", influxV1WriteRoutes)
    .route("/api/v2/write", influxV2WriteRoutes)
    .route("/ping", pingRoutes)
    .route("/query", queryRoutes)
    .route("/api/v1/write", remoteWriteRoutes)
    .route("/otlp/v1/metrics", otlpMetricsRoutes)
    .route("/data-collector-states", collectorStateRoutes)
    .route("/", collectorProtocol());
  // The document describes `api` as it is once these are added: /openapi.json and /docs included.
  return api.route("/", contractRoutes(api));
}

/** The API's routes and their types, for the typed client (`hc<ApiRoutes>`). */
export type ApiRoutes = ReturnType<typeof createApi>;

/** Builds the Worker's HTTP app: one error path, body limits, and every route under / and /v1. */
export function createApp() {
  // Not strict: a path with a trailing slash is served as the path without it.
  const app = new Hono<AppEnv>({ strict: false });
  app.onError(onError);
  app.notFound(problemOnNotFound);
  // First: load balancers call it often, and it needs none of the middleware below. The API mounts
  // it again, which describes it and answers its other methods 405.
  app.route("/healthz", healthRoutes);
  app.route("/v1/healthz", healthRoutes);
  // A known path called with another method: 405 with the methods it has, instead of the 404.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        problemOnMethodNotAllowed(c, methods, misdirectedAgentHint(c.req.method, c.req.path, c.req.url)),
    }),
  );
  app.use(async (c, next) => {
    c.set("config", readConfig(c.env));
    await next();
  });
  // Around what refuses a request before its route: an agent's refusals in its protocol's shape.
  app.use(agentRefusals);
  // Before the body limit: a client without a valid token learns nothing, not even the limits.
  app.use(authentication);
  app.use((c, next) => problemBodyLimit(c.get("config").MAX_BODY_BYTES)(c, next));

  const api = createApi();
  app.route("/v1", api);
  app.route("/", api);
  // Outside the document's two servers: the same routes as under /v1 and /, with the token in the path.
  const tokenInPath = new Hono<AppEnv>().use(refuseUnknownQuery).route("/", collectorProtocol());
  app.route("/c/:token/v1", tokenInPath);
  app.route("/c/:token", tokenInPath);
  // At the root only: the docs page names its script by absolute path.
  app.get("/_docs/*", docsAsset);
  // At the root only, as well: the dashboard's page and the files it names by absolute path.
  app.route("/", dashboardRoutes);
  return app;
}
