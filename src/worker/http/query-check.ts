import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { nearMiss } from "../../shared/near-miss";
import { ApiError, type FieldProblem, jsonPointer } from "../../shared/problems";
import type { AppEnv } from "./app-env";

/*
 * A query parameter a route does not take is refused, as an unknown body field is: a misspelt
 * `?limt=5` silently ignored would answer something the client did not ask for.
 */

/** Where a route's query validator keeps the names of the parameters the route takes. */
const queryNames = Symbol("query parameter names");

type TaggedHandler = Partial<Record<typeof queryNames, readonly string[]>>;

/** Tags `validator` with the names of the query parameters its route takes. */
export function takingQuery<M extends MiddlewareHandler>(validator: M, names: readonly string[]): M {
  return Object.assign(validator, { [queryNames]: names });
}

/**
 * The agents' routes, whose clients (InfluxDB clients, Telegraf, Prometheus, OpenTelemetry
 * exporters) send parameters of their own — db, rp, u, p, precision, org, bucket, consistency… —
 * that the service may not know and must not refuse.
 */
const agentRoute = /^(\/v1)?\/(write|query|ping|api\/v2\/write|api\/v1\/write|otlp\/v1\/metrics)\/?$/;
/** Static files (the dashboard's, the reference page's), which ignore a query as web servers do. */
const staticFile = /^\/(ui\/.*|_docs\/.*)?$/;

/** Whether the service judges the query of requests to `path` (served or documented). */
export function judgesQuery(path: string): boolean {
  return !agentRoute.test(path) && !staticFile.test(path);
}

function unknownParameter(name: string, accepted: readonly string[]): string {
  const meant = nearMiss(name, accepted);
  if (meant !== undefined) return `Unknown query parameter; did you mean "${meant}"?`;
  if (accepted.length === 0) return "Unknown query parameter; this route takes none.";
  return `Unknown query parameter; this route takes ${accepted.join(", ")}.`;
}

/**
 * Refuses (400) a request whose query names a parameter its route does not take, each at
 * `/<name>` with the name probably meant. A path no route of the method serves is left to the
 * 404 or 405 it gets anyway.
 */
export const refuseUnknownQuery = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.req.url.includes("?") || !judgesQuery(c.req.path)) return next();
  const routes = matchedRoutes(c);
  if (!routes.some((route) => route.method !== "ALL")) return next();
  const accepted = routes.flatMap((route) => (route.handler as TaggedHandler)[queryNames] ?? []);
  const given = new Set(new URL(c.req.url).searchParams.keys());
  const problems: FieldProblem[] = [...given]
    .filter((name) => !accepted.includes(name))
    .map((name) => ({ path: jsonPointer([name]), message: unknownParameter(name, accepted) }));
  if (problems.length > 0) throw ApiError.validation(problems, "The query names parameters this route does not take.");
  return next();
});
