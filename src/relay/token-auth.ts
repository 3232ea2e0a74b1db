import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { bearerToken } from "../shared/http/bearer.ts";
import { ApiError } from "../shared/problems.ts";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * Lets through only requests with `Authorization: Bearer <token>`, answering 401 otherwise.
 * Digests are compared, so neither the token's content nor its length leaks through timing.
 */
export function requireToken(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const presented = bearerToken(c.req.header("authorization"));
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      throw new ApiError("unauthorized", "A valid bearer token is required.", {
        headers: {
          "www-authenticate": 'Bearer realm="tower-edge-relay"',
        },
      });
    }
    await next();
  };
}
