/*
 * `tower-edge-via`: the instance ids of the services a delivery's data passed through, in order,
 * the sending service last. A service refuses data whose header names it (a loop).
 */

export const viaHeaderName = "tower-edge-via";

/** The header's value for a delivery from `instance` of data that came through `upstream` (oldest first). */
export function viaHeaderValue(upstream: readonly string[], instance: string): string {
  return [...upstream, instance].join(", ");
}

/** Whether a `tower-edge-via` value names `instance`: its comma-separated ids, spaces around them ignored. */
export function viaNames(value: string, instance: string): boolean {
  return value.split(",").some((id) => id.trim() === instance);
}
