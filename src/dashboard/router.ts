/**
 * The dashboard's pages, each at a hash of the one static page: `#/`, `#/metrics/<name>`,
 * `#/observers/<id>` (an observer that follows selectors), `#/model`, `#/rules`, `#/collectors`.
 */
export type Route =
  | { page: "overview" }
  | { page: "metric"; metric: string }
  | { page: "observer"; observer: string }
  | { page: "model" }
  | { page: "rules" }
  | { page: "collectors" }
  | { page: "unknown" };

/** The segment after `prefix`, decoded; undefined when the path is not of that shape or not decodable. */
function segmentAfter(prefix: string, path: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const segment = path.slice(prefix.length);
  if (segment === "" || segment.includes("/")) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "");
  if (path === "" || path === "/") return { page: "overview" };
  if (path === "/model") return { page: "model" };
  if (path === "/rules") return { page: "rules" };
  if (path === "/collectors") return { page: "collectors" };
  const metric = segmentAfter("/metrics/", path);
  if (metric !== undefined) return { page: "metric", metric };
  const observer = segmentAfter("/observers/", path);
  if (observer !== undefined) return { page: "observer", observer };
  return { page: "unknown" };
}

export function metricHref(metric: string): string {
  return `#/metrics/${encodeURIComponent(metric)}`;
}

export function selectorObserverHref(observer: string): string {
  return `#/observers/${encodeURIComponent(observer)}`;
}

/** The main navigation's entry of a route: a metric's and an observer's pages belong to the overview. */
export function navigationEntry(route: Route): string {
  return route.page === "metric" || route.page === "observer" || route.page === "unknown" ? "overview" : route.page;
}
