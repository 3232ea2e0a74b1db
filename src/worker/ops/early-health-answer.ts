import { readConfig } from "../config";
import type { Health } from "./health-schema";
import { knownInstanceId } from "./instance-id";
import { serviceVersion } from "./version";

/** The health check's answer of the service `instance`: the same for every request. */
export function healthOf(instance: string): Health {
  return { status: "ok", version: serviceVersion, instance };
}

/** The answer's text, written once the isolate knows its instance id. */
let healthText: string | undefined;

/** The health check's paths, as the app serves them: under / and /v1, with or without a trailing slash. */
const healthPaths = new Set(["/healthz", "/healthz/", "/v1/healthz", "/v1/healthz/"]);

/** Whether the settings are valid: with invalid ones the app answers every route 503, the health check included. */
function settingsValid(env: object): boolean {
  try {
    readConfig(env);
    return true;
  } catch {
    return false;
  }
}

/**
 * The answer to `GET /healthz`, given before the app's routing and middleware, none of which it
 * needs: the route is open and takes no body and no query. Load balancers and orchestrators call it
 * often, and it is the request that shows what the service adds to the platform's own cost.
 * Undefined for any other request, a query included (the app judges it), while the settings are
 * not valid, and until the isolate knows its instance id: the app then answers, as it does every
 * other request, and reads the id, once.
 */
export function earlyHealthAnswer(request: Request, env: object): Response | undefined {
  if (request.method !== "GET") return undefined;
  const { url } = request;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  if (!healthPaths.has(path) || !settingsValid(env)) return undefined;
  const instance = knownInstanceId();
  if (instance === undefined) return undefined;
  healthText ??= JSON.stringify(healthOf(instance));
  return new Response(healthText, { headers: { "content-type": "application/json" } });
}
