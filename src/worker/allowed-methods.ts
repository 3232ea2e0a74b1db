import type { RouterRoute } from "hono/types";

/** Turns a Hono path pattern (`/metrics/:id/observers`) into an anchored regular expression. */
function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      if (segment.startsWith(":")) return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

/**
 * Answers "which methods does this path have?" from the app's own route table, so that a known
 * path called with the wrong method gets 405 with `Allow` instead of 404.
 */
export function allowedMethodsResolver(routes: () => readonly RouterRoute[]) {
  let table: { pattern: RegExp; method: string }[] | undefined;
  return (path: string): string[] => {
    table ??= routes()
      .filter((route) => route.method !== "ALL")
      .map((route) => ({ pattern: patternToRegExp(route.path), method: route.method }));
    const methods = new Set(table.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}
