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
  const unknown = () => ApiError.notFound(`No route matches ${c.req.path}.`);
  // `/ui` itself reaches here too, the app's routing not being strict; it is the API's, not the
  // dashboard's (see http/auth.ts), and its assets would only redirect it.
  if (!path.startsWith(assetsFolder)) throw unknown();
  const answer = await c.env.ASSETS.fetch(new Request(new URL(path, c.req.url), c.req.raw));
  if (answer.status === 404) throw unknown();
  return answer;
}

/**
 * GET / and GET /ui/*: the dashboard, a static page whose scripts read everything through the
 * public API with the visitor's token. At the root only, as the page names its files by absolute
 * path; both are open (see http/auth.ts): they hold no data.
 */
export const dashboardRoutes = new Hono<AppEnv>()
  .get("/", (c) => asset(c, assetsFolder))
  // The path as requested, not c.req.path, from which non-strict routing trims a trailing slash:
  // the assets would redirect `/ui` to `/ui/`, the very path requested.
  .get(`${assetsFolder}*`, (c) => asset(c, new URL(c.req.url).pathname));
