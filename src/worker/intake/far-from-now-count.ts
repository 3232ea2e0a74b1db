import { type IntakeRoute, intakeRoutes } from "../common/usage";
import type { Datum } from "../vocabulary/datum";
import { isFarFromNow } from "../vocabulary/far-from-now";

/** Data stamped far from now (see far-from-now.ts) that each way in accepted, since this isolate started. */
export const farFromNowAccepted = Object.fromEntries(intakeRoutes.map((route) => [route, 0])) as Record<
  IntakeRoute,
  number
>;

/** How many of `data` are stamped far from `now`: the one check per datum on the intake's path. */
export function farFromNow(data: readonly Datum[], now: number): number {
  let far = 0;
  for (const datum of data) if (isFarFromNow(datum.timestamp, now)) far += 1;
  return far;
}
