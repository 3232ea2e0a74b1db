import { problemAnswer } from "../http/answers";
import { type Access, requiredAccess } from "../http/auth";
import { judgesQuery } from "../http/query-check";
import { settingDefaults } from "../http/setting-defaults";
import type { Operation, Responses, SecurityRequirement } from "./openapi-types";

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

/** What any route that reads a body may answer before the route sees it, besides a 400. */
const bodyAnswers: Responses = {
  413: problemAnswer(`The body is over MAX_BODY_BYTES (${settingDefaults.MAX_BODY_BYTES} unless configured).`),
  415: problemAnswer("A Content-Type that is not JSON (application/json or application/<type>+json)."),
};

const malformedBody = "the body is not JSON (malformed-json), or breaks the route's rules (validation-failed)";
const unknownQuery =
  "the query names a parameter the route does not take, each at /<name> with the name probably meant (validation-failed)";

/** The 400 the middleware may answer: for the body a route reads, for a query it judges. */
function badRequest(readsBody: boolean, judgesItsQuery: boolean): Responses {
  const causes = [readsBody && malformedBody, judgesItsQuery && unknownQuery].filter((cause) => cause !== false);
  if (causes.length === 0) return {};
  const description = causes.join("; or ");
  return { 400: problemAnswer(`${description[0]!.toUpperCase()}${description.slice(1)}.`) };
}

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
    ...badRequest(operation.requestBody !== undefined, judgesQuery(path)),
    500: internal,
    ...operation.responses,
  };
}
