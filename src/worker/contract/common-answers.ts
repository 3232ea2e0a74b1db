import { type Access, requiredAccess } from "../http/auth";
import { problemAnswer } from "./answers";
import type { Operation, Responses, SecurityRequirement } from "./openapi-types";
import { settingDefaults } from "./setting-defaults";

/*
 * The answers a route does not give itself but the middleware before it does (authentication,
 * body limits, the error handler), added to every operation by the rules of that middleware, so
 * that no route has to repeat them.
 */

const challenge = {
  "WWW-Authenticate": {
    description: 'Bearer realm="tower-edge", with error="invalid_token" or error="insufficient_scope" when they apply.',
    schema: { type: "string" as const },
  },
};

const unauthorized = {
  ...problemAnswer("No bearer token, another scheme, or a token that matches no configured token (unauthorized)."),
  headers: challenge,
};

const forbidden = {
  ...problemAnswer("An ingest token: it may only send monitoring data (forbidden)."),
  headers: challenge,
};

const badSettings = problemAnswer("The service's settings are not valid (not-configured).");
const notConfigured = problemAnswer(
  "No token is configured and AUTH_DISABLED is not true, or the service's settings are not valid (not-configured).",
);

/** The security requirement and the refusals of each access (see auth.ts). */
const byAccess: Record<Access, { security: SecurityRequirement[]; answers: Responses }> = {
  open: { security: [], answers: { 503: badSettings } },
  ingest: {
    security: [{ bearer: ["ingest"] }, { bearer: ["admin"] }],
    answers: {
      401: unauthorized,
      503: notConfigured,
    },
  },
  admin: {
    security: [{ bearer: ["admin"] }],
    answers: {
      401: unauthorized,
      403: forbidden,
      503: notConfigured,
    },
  },
};

/** What any route that reads a body may answer before the route sees it. */
const bodyAnswers: Responses = {
  400: problemAnswer("The body is not JSON (malformed-json), or breaks the route's rules (validation-failed)."),
  413: problemAnswer(`The body is over MAX_BODY_BYTES (${settingDefaults.MAX_BODY_BYTES} unless configured).`),
  415: problemAnswer("A Content-Type that is not JSON (application/json or application/<type>+json)."),
};

const internal = problemAnswer("An unexpected failure, a storage failure included; the answer shows no internals.");

/**
 * Gives `operation` of the route at `path` its security requirement and every answer the
 * middleware may give; an answer the route describes itself is kept.
 */
export function addCommonAnswers(path: string, operation: Operation): void {
  const access = byAccess[requiredAccess(path)];
  operation.security = access.security;
  operation.responses = {
    ...access.answers,
    ...(operation.requestBody ? bodyAnswers : {}),
    500: internal,
    ...operation.responses,
  };
}
