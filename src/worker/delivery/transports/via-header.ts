/*
 * `tower-edge-via`: the instance ids of the services a delivery's data passed through, in order,
 * the sending service last. A service refuses data whose header names it (a loop), and carries the
 * ids of the data it takes on to its own deliveries.
 */

export const viaHeaderName = "tower-edge-via";

/** Most ids a request's chain may name: far more hops than any pipeline of services has. */
export const maxViaIds = 16;
/** Most characters of one id (instance ids are UUIDs, 36). */
export const maxViaIdLength = 64;

/** An id as the chain carries it on: visible ASCII but the comma that separates the ids. */
const viaId = /^[\x21-\x2b\x2d-\x7e]+$/;

/** A request's upstream ids, or why they cannot be carried on. */
export type ViaChain = { ok: true; ids: string[] } | { ok: false; problem: string };

/** The header's value for a delivery from `instance` of data that came through `upstream` (oldest first). */
export function viaHeaderValue(upstream: readonly string[], instance: string): string {
  return [...upstream, instance].join(", ");
}

/** Whether a `tower-edge-via` value names `instance`: its comma-separated ids, spaces around them ignored. */
export function viaNames(value: string, instance: string): boolean {
  return value.split(",").some((id) => id.trim() === instance);
}

/**
 * The ids a `tower-edge-via` value names, in order, each once (spaces around them and empty
 * entries ignored): at most `maxViaIds`, each at most `maxViaIdLength` characters of visible ASCII.
 */
export function readViaChain(value: string): ViaChain {
  const ids = new Set<string>();
  for (const entry of value.split(",")) {
    const id = entry.trim();
    if (id === "") continue;
    if (id.length > maxViaIdLength || !viaId.test(id)) {
      return {
        ok: false,
        problem: `names ${JSON.stringify(id.slice(0, maxViaIdLength))}, not an id of at most ${maxViaIdLength} visible ASCII characters`,
      };
    }
    ids.add(id);
  }
  if (ids.size > maxViaIds) return { ok: false, problem: `names ${ids.size} services, more than ${maxViaIds}` };
  return { ok: true, ids: [...ids] };
}
