import { z } from "zod";
import type { ApiError } from "../../../shared/problems";

/*
 * InfluxDB's own answer shapes, which its clients read: the 1.x API's `{"error"}` (also in the
 * X-Influxdb-Error header) and the 2.x API's `{"code","message"}`.
 */

export const influxV1ErrorSchema = z
  .strictObject({ error: z.string() })
  .meta({ id: "InfluxV1Error", description: "An error as the InfluxDB 1.x API answers it." });

export const influxV2ErrorSchema = z
  .strictObject({ code: z.string(), message: z.string() })
  .meta({ id: "InfluxV2Error", description: "An error as the InfluxDB 2.x API answers it." });

/** The 2.x API's error codes for the statuses this service answers. */
const v2Codes: Record<number, string> = {
  400: "invalid",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  405: "method not allowed",
  413: "request too large",
  415: "unsupported media type",
  503: "unavailable",
  508: "loop detected",
};

/** The headers an error answer carries besides its body's: Retry-After and the like. */
const headersOf = (error: ApiError) => ({ ...error.headers });

/**
 * A message as a header value can carry it: the message may quote the body, whose control
 * characters and non-ASCII text a header may not hold. The JSON body keeps the message as it is.
 */
export function headerSafe(message: string): string {
  return message.replace(/[^\x20-\x7e]/g, "?");
}

export function influxV1Error(error: ApiError): Response {
  return Response.json(
    { error: error.message },
    { status: error.status, headers: { ...headersOf(error), "x-influxdb-error": headerSafe(error.message) } },
  );
}

export function influxV2Error(error: ApiError): Response {
  return Response.json(
    { code: v2Codes[error.status] ?? "internal error", message: error.message },
    { status: error.status, headers: headersOf(error) },
  );
}
