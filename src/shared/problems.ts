/*
 * Problem details (RFC 9457): the one error shape of the Worker and the relay alike.
 */
import { z } from "zod";
import { didYouMean } from "./near-miss.ts";

/** One problem in a request, located by a JSON pointer (RFC 6901) into the body or path. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * Every problem the service answers with: its status and title. The code is the last part of the
 * problem's `type` URI, so clients can branch on it.
 */
const problemKinds = {
  "validation-failed": { status: 400, title: "Request not valid" },
  "malformed-json": { status: 400, title: "Malformed JSON" },
  unauthorized: { status: 401, title: "Unauthorized" },
  forbidden: { status: 403, title: "Forbidden" },
  "not-found": { status: 404, title: "Resource not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  "payload-too-large": { status: 413, title: "Payload too large" },
  "unsupported-media-type": { status: 415, title: "Unsupported media type" },
  internal: { status: 500, title: "Internal server error" },
  "not-configured": { status: 503, title: "Service not configured" },
  unavailable: { status: 503, title: "Service unavailable" },
  "loop-detected": { status: 508, title: "Loop detected" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof problemKinds;

export const problemCodes = Object.keys(problemKinds) as ProblemCode[];

export interface ApiErrorOptions {
  /** One entry per problem in the request, each located by a JSON pointer. */
  problems?: FieldProblem[];
  /** Headers the response carries besides its content type (`allow`, `www-authenticate`, …). */
  headers?: Record<string, string>;
}

/** An error that the app turns into an application/problem+json response (RFC 9457). */
export class ApiError extends Error {
  readonly status: number;
  readonly problems?: FieldProblem[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ProblemCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = problemKinds[code].status;
    this.problems = options.problems;
    this.headers = options.headers;
  }

  static validation(problems: FieldProblem[], detail = "The request has problems; see errors."): ApiError {
    return new ApiError("validation-failed", detail, { problems });
  }

  static notFound(detail: string): ApiError {
    return new ApiError("not-found", detail);
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldProblem[];
}

/**
 * The most problems an answer lists. A request can hold any number of faults (a document of
 * thousands of rules, each wrong); listing them all would make the answer many times the request.
 */
export const maxListedProblems = 100;

/** The longest path or message of a listed problem; a longer one (which echoes the request) is cut. */
export const maxProblemTextLength = 1_000;

/** `text` cut to `maxProblemTextLength` characters, never inside a surrogate pair, ending in "…" when cut. */
function bounded(text: string): string {
  if (text.length <= maxProblemTextLength) return text;
  const kept = text.slice(0, maxProblemTextLength - 1);
  return `${/[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept}…`;
}

export function problemBody(error: ApiError): ProblemBody {
  const problems = error.problems ?? [];
  const unlisted = problems.length - maxListedProblems;
  const body: ProblemBody = {
    type: `urn:tower-edge:problem:${error.code}`,
    title: problemKinds[error.code].title,
    status: error.status,
    detail:
      unlisted > 0
        ? `${error.message} The first ${maxListedProblems} problems are listed, and ${unlisted} more problems are not.`
        : error.message,
  };
  if (problems.length > 0) {
    body.errors = problems
      .slice(0, maxListedProblems)
      .map((problem) => ({ path: bounded(problem.path), message: bounded(problem.message) }));
  }
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
 * zod's issue for unknown keys names them but not the keys the object takes, which the schema that
 * raised it knows: they are kept on the issue, so that a misspelt key can be answered with the one
 * probably meant. (No message is set here: the issue keeps zod's own.)
 */
z.config({
  customError(issue) {
    if (issue.code !== "unrecognized_keys") return undefined;
    const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
    if (shape) Object.assign(issue, { known: Object.keys(shape) });
    return undefined;
  },
});

/** "Unknown field.", with the name probably meant when one of `known` is close. */
export function unknownField(key: string, known: readonly string[] = []): string {
  const hint = didYouMean(key, known);
  return hint === "" ? "Unknown field." : `Unknown field${hint}`;
}

/**
 * One problem per zod issue, located by JSON pointer. An unknown key is reported at the key
 * itself, so the client sees exactly which field to remove (or the one probably meant); a record
 * key that is not valid is reported there too, with what is wrong with it rather than zod's generic
 * "Invalid key in record".
 */
export function zodProblems(error: z.core.$ZodError, prefix: readonly PropertyKey[] = []): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      const { known } = issue as { known?: string[] };
      for (const key of issue.keys)
        problems.push({ path: jsonPointer([...path, key]), message: unknownField(key, known) });
    } else if (issue.code === "invalid_key") {
      for (const keyIssue of issue.issues) problems.push({ path: jsonPointer(path), message: keyIssue.message });
    } else {
      problems.push({ path: jsonPointer(path), message: issue.message });
    }
  }
  return problems;
}
