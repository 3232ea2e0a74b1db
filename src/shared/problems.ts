/*
 * Problem details (RFC 9457): the one error shape of the Worker and the relay alike.
 */
import type { z } from "zod";

/** One problem in a request, located by a JSON pointer (RFC 6901) into the body or path. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** Machine-readable problem codes; the `type` URI of a problem is derived from them. */
export type ProblemCode =
  | "validation-failed"
  | "malformed-json"
  | "not-found"
  | "method-not-allowed"
  | "payload-too-large"
  | "unsupported-media-type"
  | "conflict"
  | "unauthorized"
  | "forbidden"
  | "not-configured"
  | "unavailable"
  | "internal";

const titles: Record<ProblemCode, string> = {
  "validation-failed": "Request not valid",
  "malformed-json": "Malformed JSON",
  "not-found": "Resource not found",
  "method-not-allowed": "Method not allowed",
  "payload-too-large": "Payload too large",
  "unsupported-media-type": "Unsupported media type",
  conflict: "Conflict",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  "not-configured": "Service not configured",
  unavailable: "Service unavailable",
  internal: "Internal server error",
};

/** An error that the app turns into an application/problem+json response (RFC 9457). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    message: string,
    readonly problems?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  static validation(problems: FieldProblem[], detail = "The request has problems; see errors."): ApiError {
    return new ApiError(400, "validation-failed", detail, problems);
  }

  static notFound(detail: string): ApiError {
    return new ApiError(404, "not-found", detail);
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldProblem[];
}

export function problemBody(error: ApiError): ProblemBody {
  const body: ProblemBody = {
    type: `urn:tower-edge:problem:${error.code}`,
    title: titles[error.code],
    status: error.status,
    detail: error.message,
  };
  if (error.problems && error.problems.length > 0) body.errors = error.problems;
  return body;
}

export function problemResponse(error: ApiError): Response {
  const headers = new Headers(error.headers);
  headers.set("content-type", "application/problem+json");
  return new Response(JSON.stringify(problemBody(error)), { status: error.status, headers });
}

/** Escapes one reference token of a JSON pointer (RFC 6901 section 4). */
function escapePointerToken(token: PropertyKey): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((token) => `/${escapePointerToken(token)}`).join("");
}

/**
 * One problem per zod issue, located by JSON pointer. An unknown key is reported at the key
 * itself, so the client sees exactly which field to remove.
 */
export function zodProblems(error: z.core.$ZodError, prefix: readonly PropertyKey[] = []): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) problems.push({ path: jsonPointer([...path, key]), message: "Unknown field." });
    } else {
      problems.push({ path: jsonPointer(path), message: issue.message });
    }
  }
  return problems;
}
