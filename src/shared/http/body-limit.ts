import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../problems.ts";

/** `hono/body-limit` answering a body over `maxSize` bytes 413 as a problem, with `headers` added. */
export function problemBodyLimit(maxSize: number, headers?: Record<string, string>): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError("payload-too-large", `The body is larger than the limit of ${maxSize} bytes.`, { headers });
    },
  });
}
