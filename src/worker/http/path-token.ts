/*
 * The original's data collectors send no credentials and are configured with a manager address
 * alone, so on their routes the token may come in the path: `/c/<token>/v1/data-collectors`.
 */

const tokenPrefix = /^\/c\/([^/]+)(?=\/|$)/;

/** A request path split at its token prefix: the prefix as written, the token it carries, and the path after it. */
export interface PathToken {
  /** `/c/<token>` as the request wrote it (percent-encoded), or "" without one. */
  prefix: string;
  token: string | undefined;
  path: string;
}

/** Splits a raw (percent-encoded) request path at its `/c/<token>` prefix, if it has one. */
export function splitPathToken(rawPath: string): PathToken {
  const match = tokenPrefix.exec(rawPath);
  if (!match) return { prefix: "", token: undefined, path: rawPath };
  let token: string | undefined;
  try {
    token = decodeURIComponent(match[1]!);
  } catch {
    token = undefined;
  }
  return { prefix: match[0], token, path: rawPath.slice(match[0].length) || "/" };
}
