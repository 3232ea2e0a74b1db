/**
 * The dashboard's pages, each at a hash of the one static page: `#/`, `#/metrics/<name>`,
 * `#/model`, `#/rules`, `#/collectors`.
 */
export type Route =
  | { page: "overview" }
  | { page: "metric"; metric: string }
  | { page: "model" }
  | { page: "rules" }
  | { page: "collectors" }
  | { page: "unknown" };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "");
  if (path === "" || path === "/") return { page: "overview" };
  if (path === "/model") return { page: "model" };
  if (path === "/rules") return { page: "rules" };
  if (path === "/collectors") return { page: "collectors" };
  const metric = /^\/metrics\/([^/]+)$/.exec(path)?.[1];
  if (metric !== undefined) {
    try {
      return { page: "metric", metric: decodeURIComponent(metric) };
    } catch {
      return { page: "unknown" };
    }
  }
  return { page: "unknown" };
}

export function metricHref(metric: string): string {
  return `#/metrics/${encodeURIComponent(metric)}`;
}

/** The main navigation's entry of a route: a metric's page belongs to the overview. */
export function navigationEntry(route: Route): string {
  return route.page === "metric" || route.page === "unknown" ? "overview" : route.page;
}
