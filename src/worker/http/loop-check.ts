import type { Context } from "hono";
import { ApiError } from "../../shared/problems";
import { type IntakeRoute, intakeRoutes } from "../common/usage";
import { readViaChain, viaHeaderName, viaNames } from "../delivery/transports/via-header";
import { instanceId } from "../ops/instance-id";
import type { AppEnv } from "./app-env";

/** What a 508 of an intake route means, for the API's document. */
export const loopRefusalDescription =
  `The request's ${viaHeaderName} names this service: its data came from one of this service's own deliveries ` +
  "(loop-detected). Nothing was accepted.";

/** Requests each way in refused as loops, since this isolate started. */
export const loopsRefused = Object.fromEntries(intakeRoutes.map((route) => [route, 0])) as Record<IntakeRoute, number>;

/**
 * The upstream services the request's data came through (its `tower-edge-via` ids, oldest first),
 * which the data carry on to this service's deliveries; a chain too long, or an id that is not
 * one, refuses the request (400). A request without the header costs one header lookup.
 */
export function upstreamVia(c: Context<AppEnv>): readonly string[] {
  const via = c.req.raw.headers.get(viaHeaderName);
  if (via === null) return [];
  const chain = readViaChain(via);
  if (chain.ok) return chain.ids;
  throw new ApiError("validation-failed", `The request's ${viaHeaderName} ${chain.problem}. Nothing was accepted.`);
}

/**
 * Checks an intake request's `tower-edge-via` before anything else of it: refuses it (508) when it
 * names this service, whose own delivery its data come from (taking them would deliver them again,
 * round and round), and (400) when its chain cannot be carried on (see upstreamVia).
 */
export async function checkVia(c: Context<AppEnv>, route: IntakeRoute): Promise<void> {
  const via = c.req.raw.headers.get(viaHeaderName);
  if (via === null) return;
  const instance = await instanceId(c.env);
  if (viaNames(via, instance)) {
    loopsRefused[route] += 1;
    throw new ApiError(
      "loop-detected",
      `The request already passed through this service (${viaHeaderName} names its instance ${instance}): one of ` +
        "its observers delivers to its own intake. Nothing was accepted.",
    );
  }
  upstreamVia(c);
}
