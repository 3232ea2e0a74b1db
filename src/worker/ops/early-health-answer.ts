import type { z } from "zod";
import { readConfig } from "../config";
import type { healthSchema } from "./health-schema";
import { serviceVersion } from "./version";

/** The health check's answer, the same for every request. */
export const health: z.infer<typeof healthSchema> = { status: "ok", version: serviceVersion };

const healthText = JSON.stringify(health);

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
 * Undefined for any other request, a query included (the app judges it), and while the settings
 * are not valid: the app then answers, as it does every other request.
 */
export function earlyHealthAnswer(request: Request, env: object): Response | undefined {
  if (request.method !== "GET") return undefined;
  const { url } = request;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  if (!healthPaths.has(path) || !settingsValid(env)) return undefined;
  return new Response(healthText, { headers: { "content-type": "application/json" } });
}
