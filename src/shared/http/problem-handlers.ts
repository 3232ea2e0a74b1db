/*
 * Hono's hooks for what no route answers itself (errors, unknown paths, wrong methods), each
 * answered as application/problem+json, so that every answer of an app has the one error shape.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, problemResponse } from "../problems.ts";

function toApiError(error: Error, logLabel: string): ApiError {
  if (error instanceof ApiError) return error;
  // Hono's own refusals (a body it could not parse, a body over its default limit).
  if (error instanceof HTTPException && (error.status === 400 || error.status === 413)) {
    const code = error.status === 400 ? "malformed-json" : "payload-too-large";
    return new ApiError(code, error.message || "The request could not be processed.");
  }
  // The details go to the operator's log only: they may name internals or secrets.
  console.error(logLabel, error.stack ?? error.message);
  return new ApiError("internal", "An unexpected error occurred; it has been logged.");
}

/** For `app.onError`: an unexpected error is logged under `logLabel` and answered 500 without its details. */
export function problemOnError(logLabel: string): (error: Error) => Response {
  return (error) => problemResponse(toApiError(error, logLabel));
}

/** For `app.notFound`. */
export function problemOnNotFound(c: Context): Response {
  return problemResponse(ApiError.notFound(`No route matches ${c.req.path}.`));
}

/**
 * For `methodNotAllowed({ onMethodNotAllowed })` of `hono/method-not-allowed`: 405 with `Allow`, and
 * `hint` (where the request probably meant to go) when there is one.
 */
export function problemOnMethodNotAllowed(c: Context, methods: string[], hint?: string): Response {
  const detail = `${c.req.method} is not allowed on ${c.req.path}.${hint === undefined ? "" : ` ${hint}`}`;
  return problemResponse(
    new ApiError("method-not-allowed", detail, { headers: { allow: methods.toSorted().join(", ") } }),
  );
}
