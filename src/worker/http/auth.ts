import { createMiddleware } from "hono/factory";
import { bearerToken } from "../../shared/http/bearer";
import { ApiError } from "../../shared/problems";
import type { Config } from "../config";
import type { AppEnv } from "./app-env";
import { misdirectedAgentHint } from "./misdirected-agent";
import { splitPathToken } from "./path-token";

/** What a request needs: nothing, an ingest or admin token, or an admin token. */
export type Access = "open" | "ingest" | "admin";

/** The health checks (ours and InfluxDB clients') and the API's description: the document and the page that shows it. */
const openRoute = /^\/(healthz|ping|openapi\.json|docs)\/?$/;
/** The page's scripts, served at the root only (the page names them by absolute path). */
const docsAssets = /^\/_docs\//;
/** The dashboard's page and files, at the root only: they hold no data, which the page reads with a token. */
const dashboard = /^\/(ui\/.*)?$/;
const ingestRoute = /^\/(monitoringdata|results)\/?$/;
/**
 * The agents' routes, which take ingest tokens in every form their clients send: InfluxDB clients
 * send `Token` or Basic credentials, and the 1.x API's clients a `p` query parameter.
 */
const agentRoute = /^\/(write|query|api\/v2\/write|api\/v1\/write|otlp\/v1\/metrics)\/?$/;
const queryTokenRoute = /^\/(write|query)\/?$/;
/**
 * The original's data-collector protocol: registration, keep-alive, configuration and the stream
 * endpoint, which take ingest tokens (also in the path, see path-token.ts), and what collectors must send.
 */
const collectorRoute =
  /^\/(data-collectors(\/[^/]+(\/(keepalive|configuration))?)?|streams\/[^/]+|required-metrics)\/?$/;

/** A path without its /v1 prefix: every route is served under /v1 and at the root. */
export const unversioned = (path: string) => path.replace(/^\/v1(?=\/|$)/, "");

/**
 * The access a request path needs, the same with and without the /v1 prefix. Only the health
 * check, the API's description and the dashboard's files are open and only the intake routes take
 * ingest tokens; every other path needs the admin role, including paths no route serves. So a
 * route added later is protected without being listed here, and the API's surface cannot be probed
 * without a token: 404 and 405 come only after authentication. The document states each route's
 * access with this.
 */
export function requiredAccess(path: string): Access {
  const route = unversioned(path);
  if (openRoute.test(route) || docsAssets.test(path) || dashboard.test(path)) return "open";
  if (ingestRoute.test(route) || agentRoute.test(route) || collectorRoute.test(route)) return "ingest";
  return "admin";
}

const encoder = new TextEncoder();

function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(text));
}

/*
 * The configured tokens' digests, computed once per configuration (readConfig keeps one per env),
 * not on every request. The values are kept rather than promises, which would be settled in
 * another request's context.
 */
const configuredDigests = new WeakMap<readonly string[], ArrayBuffer[]>();

async function digestsOf(tokens: readonly string[]): Promise<ArrayBuffer[]> {
  let digests = configuredDigests.get(tokens);
  if (!digests) {
    digests = await Promise.all(tokens.map(sha256));
    configuredDigests.set(tokens, digests);
  }
  return digests;
}

/**
 * Whether the presented token's digest equals the digest of one of `tokens`. Digests have one
 * length whatever the tokens' lengths, the comparison takes the same time wherever they differ,
 * and every configured token is compared even after a match: the answer's timing tells nothing
 * about how close a guess was, or which token it matched.
 */
async function matchesAny(presented: ArrayBuffer, tokens: readonly string[]): Promise<boolean> {
  let matched = false;
  for (const digest of await digestsOf(tokens)) {
    matched = crypto.subtle.timingSafeEqual(digest, presented) || matched;
  }
  return matched;
}

/** The challenge of RFC 6750 section 3, with its error code when the client sent a token. */
function challenge(error?: "invalid_token" | "insufficient_scope"): Record<string, string> {
  return { "www-authenticate": `Bearer realm="tower-edge"${error ? `, error="${error}"` : ""}` };
}

const notConfigured = () =>
  new ApiError(
    "not-configured",
    "Authentication is not configured: set the ADMIN_TOKEN and/or INGEST_TOKEN secrets " +
      "(comma-separated tokens), or AUTH_DISABLED=true to run without authentication (local development only).",
  );

/** The password of `Authorization: Basic base64(user:password)`, which InfluxDB clients send the token as. */
function basicPassword(authorization: string): string | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(authorization)?.[1];
  if (encoded === undefined) return undefined;
  try {
    const credentials = atob(encoded);
    const colon = credentials.indexOf(":");
    return colon >= 0 && colon < credentials.length - 1 ? credentials.slice(colon + 1) : undefined;
  } catch {
    return undefined;
  }
}

/** The token an agent's request presents: in the Authorization header in any of its forms, or as `p=`. */
function agentToken(path: string, url: string, authorization: string | undefined): string | undefined {
  const header = authorization ?? "";
  const token = bearerToken(header) ?? /^Token +(\S+) *$/i.exec(header)?.[1] ?? basicPassword(header);
  if (token !== undefined || !queryTokenRoute.test(path)) return token;
  return new URL(url).searchParams.get("p") || undefined;
}

/** What a refusal tells about the token: for a missing one and for one not valid. */
interface TokenAdvice {
  missing: string;
  invalid: string;
}

const bearerAdvice: TokenAdvice = {
  missing: "This route needs a bearer token: send Authorization: Bearer <token>.",
  invalid: "The bearer token is not valid.",
};

/**
 * The forms an agent's route takes its token in. InfluxDB clients have no token setting of their
 * own in the 1.x API: they send it as their password, which is easily put in the user name instead.
 */
function agentAdvice(route: string): TokenAdvice {
  const query = queryTokenRoute.test(route) ? ", or as p=<token>" : "";
  const forms =
    "send an ingest token as Authorization: Bearer <token> or Token <token>, or as the password of Basic " +
    `credentials (InfluxDB clients send the token as their password, not their user name)${query}`;
  return { missing: `This route needs a token: ${forms}.`, invalid: `The token is not valid; ${forms}.` };
}

/** `message`, and where the request probably meant to go when it is an agent's slip. */
const withHint = (message: string, hint: string | undefined) => (hint === undefined ? message : `${message} ${hint}`);

async function authorize(
  access: Exclude<Access, "open">,
  token: string | undefined,
  config: Config,
  advice: TokenAdvice,
  hint: string | undefined,
) {
  if (config.ADMIN_TOKEN.length === 0 && config.INGEST_TOKEN.length === 0) throw notConfigured();
  if (token === undefined) {
    throw new ApiError("unauthorized", withHint(advice.missing, hint), { headers: challenge() });
  }
  const presented = await sha256(token);
  const [isAdmin, isIngest] = await Promise.all([
    matchesAny(presented, config.ADMIN_TOKEN),
    matchesAny(presented, config.INGEST_TOKEN),
  ]);
  if (!isAdmin && !isIngest) {
    throw new ApiError("unauthorized", withHint(advice.invalid, hint), { headers: challenge("invalid_token") });
  }
  if (access === "admin" && !isAdmin) {
    const message = "This route needs an admin token; an ingest token may only send monitoring data.";
    throw new ApiError("forbidden", withHint(message, hint), { headers: challenge("insufficient_scope") });
  }
}

/** The token a request presents: in its path prefix, else in the forms its route takes. */
function presentedToken(path: string, url: string, authorization: string | undefined): string | undefined {
  const inPath = splitPathToken(new URL(url).pathname);
  if (inPath.prefix) return inPath.token;
  const route = unversioned(path);
  return agentRoute.test(route) ? agentToken(route, url, authorization) : bearerToken(authorization);
}

/**
 * Bearer-token authentication with two roles: admin tokens may do everything, ingest
 * tokens may only send monitoring data. A service without any token refuses to run open (503)
 * unless AUTH_DISABLED says so; the open routes stay open either way. A path under the token
 * prefix (`/c/<token>/…`) needs the access of the path after it, with the prefix's token.
 */
export const authentication = createMiddleware<AppEnv>(async (c, next) => {
  const inPath = splitPathToken(c.req.path);
  const access = requiredAccess(inPath.path);
  const config = c.get("config");
  if (access !== "open" && !config.AUTH_DISABLED) {
    const route = unversioned(inPath.path);
    const advice = inPath.prefix || !agentRoute.test(route) ? bearerAdvice : agentAdvice(route);
    const hint = misdirectedAgentHint(c.req.method, inPath.path, c.req.url);
    const token = presentedToken(inPath.path, c.req.url, c.req.header("authorization"));
    await authorize(access, token, config, advice, hint);
  }
  await next();
});
