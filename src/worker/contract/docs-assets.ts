import type { Context } from "hono";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../http/app-env";
import { problemAnswer } from "./answers";

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

/** The route in the document: served at the root only, which the path's own servers say. */
export const docsAssetDocumentation = {
  "/_docs/{file}": {
    servers: [{ url: "/" }],
    get: {
      operationId: "getDocsFile",
      tags: ["API description"],
      summary: "A script of the API reference page",
      parameters: [
        {
          in: "path" as const,
          name: "file",
          required: true,
          schema: { type: "string" as const, examples: ["scalar.js"] },
        },
      ],
      responses: {
        200: { description: "The file.", content: { "text/javascript": { schema: { type: "string" as const } } } },
        404: problemAnswer("No such file (not-found)."),
      },
    },
  },
};
