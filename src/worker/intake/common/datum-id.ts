/*
 * Datum ids for the agents' data, which carry none: a hash of (metric, resourceId, timestamp), so a
 * batch a client sends again (Telegraf and Prometheus resend on any failure) gives the same ids.
 * Two 32-bit multiplicative lanes make 64 bits, enough that distinct series at one instant do not
 * share an id in practice; the hash is no defence against a sender choosing collisions, nor needs
 * to be: a sender chooses its RDF/JSON ids freely too.
 */

let laneA = 0;
let laneB = 0;

function mixText(text: string): void {
  for (let index = 0; index < text.length; index++) mixCode(text.charCodeAt(index));
}

function mixCode(code: number): void {
  laneA = Math.imul(laneA ^ code, 0x9e3779b1);
  laneB = Math.imul(laneB ^ code, 0x5f356495);
}

const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, "0");

/** The lanes after a series' resourceId: computed once per series, then continued per point. */
export interface SeriesHashSeed {
  readonly a: number;
  readonly b: number;
}

export function seriesHashSeed(resourceId: string): SeriesHashSeed {
  laneA = 0x811c9dc5;
  laneB = 0x01000193;
  mixText(resourceId);
  // A separator no resourceId character can take, so that ("ab","c") and ("a","bc") differ.
  mixCode(0x1_0000);
  return { a: laneA, b: laneB };
}

/** The id of the datum of `metric` at `timestamp` in the series `seed` was made from. */
export function agentDatumId(seed: SeriesHashSeed, metric: string, timestamp: number): string {
  laneA = seed.a;
  laneB = seed.b;
  mixText(metric);
  mixCode(0x1_0000);
  // In 16-bit pieces, like characters: 32-bit words with their high bits set (a negative
  // timestamp's) can undo each other's mixing, which gave the timestamps -1 and 2^32 + 1 one id.
  const low = timestamp >>> 0;
  const high = Math.floor(timestamp / 4_294_967_296) >>> 0;
  mixCode(low & 0xffff);
  mixCode(low >>> 16);
  mixCode(high & 0xffff);
  mixCode(high >>> 16);
  const a = Math.imul(laneA ^ (laneA >>> 16), 0x85ebca6b) ^ Math.imul(laneB ^ (laneB >>> 13), 0xc2b2ae35);
  const b = Math.imul(laneB ^ (laneB >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return hex(a) + hex(b);
}
