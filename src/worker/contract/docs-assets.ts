import type { Context } from "hono";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../http/app-env";

/**
 * GET /_docs/*: the docs page's files, from the Workers static assets (wrangler.toml [assets]).
 * The Worker runs first for every request, so these answers take the same path in tests as when
 * deployed; a file that is not there is answered like any unknown path.
 */
export async function docsAsset(c: Context<AppEnv>): Promise<Response> {
  const asset = await c.env.ASSETS.fetch(c.req.raw);
  if (asset.status === 404) throw ApiError.notFound(`No route matches ${c.req.path}.`);
  return asset;
}
