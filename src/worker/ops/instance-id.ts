import { metricCatalogStub } from "../metrics/metric-catalog";

/** The id once read: it never changes, so an isolate asks the catalog at most once. */
let known: string | undefined;
/** The read under way, shared by the requests that need the id before it is known. */
let reading: Promise<string> | undefined;

/**
 * This service's instance id (kept by the metric catalog), read once per isolate: the health check
 * shows it, deliveries name it in `tower-edge-via`, and the intake refuses a request that names it.
 */
export function instanceId(env: Env): Promise<string> {
  if (known !== undefined) return Promise.resolve(known);
  reading ??= metricCatalogStub(env)
    .instanceId()
    .then(
      (id) => {
        known = id;
        return id;
      },
      (error: unknown) => {
        // A failed read is not kept: the next request asks again.
        reading = undefined;
        throw error;
      },
    );
  return reading;
}
