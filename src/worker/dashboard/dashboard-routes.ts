import { type Context, Hono } from "hono";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../http/app-env";

/** Where the dashboard's files are, in the Workers static assets (public/ui, see tools/dashboard-assets.mjs). */
const assetsFolder = "/ui/";

/**
 * The asset at `path` of the static assets. Asset paths follow their files, so the page is asked
 * for by its folder: with the default HTML handling, the assets answer `/ui/index.html` with a
 * redirect to `/ui/`.
 */
async function asset(c: Context<AppEnv>, path: string): Promise<Response> {
  const answer = await c.env.ASSETS.fetch(new Request(new URL(path, c.req.url), c.req.raw));
  if (answer.status === 404) throw ApiError.notFound(`No route matches ${c.req.path}.`);
  return answer;
}

/**
 * GET / and GET /ui/*: the dashboard, a static page whose scripts read everything through the
 * public API with the visitor's token. At the root only, as the page names its files by absolute
 * path; both are open (see http/auth.ts): they hold no data.
 */
export const dashboardRoutes = new Hono<AppEnv>()
  .get("/", (c) => asset(c, assetsFolder))
  .get(`${assetsFolder}*`, (c) => asset(c, c.req.path));
