import type { Hono } from "hono";
import { hc } from "hono/client";

/**
 * Hono's typed client (`hc`) of an app whose route types are `Routes` (the Worker's `ApiRoutes`),
 * sending every request through `fetch`. Path parameters are put in the URL as given: pass them
 * percent-encoded (`encodeURIComponent`), as the API decodes them.
 */
export function apiClient<Routes extends Hono<any, any, any>>(baseUrl: string, fetch: typeof globalThis.fetch) {
  return hc<Routes>(baseUrl, { fetch });
}
