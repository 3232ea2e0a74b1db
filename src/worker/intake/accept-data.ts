import type { Context } from "hono";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../http/app-env";
import { upstreamVia } from "../http/loop-check";
import type { Datum } from "../vocabulary/datum";
import { intakeSender } from "./intake-sender";
import { registerMetrics } from "./metric-registry";

/** How long a client is asked to wait before it sends again: a restart or a passing overload takes seconds. */
export const retryAfterSeconds = 5;

const retryAfter = { "retry-after": String(retryAfterSeconds) };

/**
 * Runs `work`, once more after a short pause if it fails (a passing overload should not cost the
 * client a round trip), then answers 503 with Retry-After: the client resends, so nothing accepted
 * is lost. A send that failed after all reached the queue makes a duplicate, which at-least-once allows.
 */
async function unavailable<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (firstError) {
    console.error(
      `intake: ${what} failed, trying again:`,
      firstError instanceof Error ? firstError.message : firstError,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      return await work();
    } catch (error) {
      console.error(`intake: ${what} failed`, error instanceof Error ? error.message : String(error));
      throw new ApiError("unavailable", `The ${what} could not be reached; resend the request.`, {
        headers: retryAfter,
      });
    }
  }
}

/**
 * Registers the data's unknown metrics and puts the data on the intake queue, with the upstream
 * services the request came through; resolves once every datum is on it. Every way in ends here,
 * so every datum takes the same path to the observers.
 */
export async function queueData(c: Context<AppEnv>, data: readonly Datum[]): Promise<void> {
  if (data.length === 0) return;
  const via = upstreamVia(c);
  // The names apart from the data: a function holding the data would keep them while the send waits.
  const metrics = new Set(data.map((datum) => datum.metric));
  const sender = intakeSender(c.env.INTAKE_QUEUE);
  // Taken before the first wait, which lets other requests run: a larger request's data are then
  // encoded at once, and only their messages outlive it, not the data the other requests' garbage
  // collections would copy.
  const send = sender.sendOf(data, (promise) => c.executionCtx.waitUntil(promise), via);
  await unavailable("metric store", () => registerMetrics(c.env, metrics));
  await unavailable("intake queue", send);
}
