import type { Context } from "hono";
import { ApiError } from "../../shared/problems";
import { type IntakeRoute, intakeRoutes } from "../common/usage";
import { viaHeaderName, viaNames } from "../delivery/transports/via-header";
import { instanceId } from "../ops/instance-id";
import type { AppEnv } from "./app-env";

/** What a 508 of an intake route means, for the API's document. */
export const loopRefusalDescription =
  `The request's ${viaHeaderName} names this service: its data came from one of this service's own deliveries ` +
  "(loop-detected). Nothing was accepted.";

/** Requests each way in refused as loops, since this isolate started. */
export const loopsRefused = Object.fromEntries(intakeRoutes.map((route) => [route, 0])) as Record<IntakeRoute, number>;

/**
 * Refuses (508) an intake request whose `tower-edge-via` names this service: its data come from
 * this service's own delivery, and taking them would deliver them again, round and round. A request
 * without the header costs one header lookup.
 */
export async function refuseLoop(c: Context<AppEnv>, route: IntakeRoute): Promise<void> {
  const via = c.req.raw.headers.get(viaHeaderName);
  if (via === null) return;
  const instance = await instanceId(c.env);
  if (!viaNames(via, instance)) return;
  loopsRefused[route] += 1;
  throw new ApiError(
    "loop-detected",
    `The request already passed through this service (${viaHeaderName} names its instance ${instance}): one of ` +
      "its observers delivers to its own intake. Nothing was accepted.",
  );
}
