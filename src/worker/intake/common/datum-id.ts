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

/** The two lanes of a hash: a series' resourceId's, computed once per series, or a metric name's, once per request. */
export interface HashLanes {
  readonly a: number;
  readonly b: number;
}

function lanesOf(text: string, seedA: number, seedB: number): HashLanes {
  laneA = seedA;
  laneB = seedB;
  mixText(text);
  // A separator no character can take, so that texts of different lengths stay apart.
  mixCode(0x1_0000);
  return { a: laneA, b: laneB };
}

export const seriesHashSeed = (resourceId: string): HashLanes => lanesOf(resourceId, 0x811c9dc5, 0x01000193);

export const metricHash = (metric: string): HashLanes => lanesOf(metric, 0x27d4eb2f, 0x165667b1);

/** Mixes a 32-bit word in 16-bit pieces, like characters (see below). */
function mixWord(word: number): void {
  mixCode(word & 0xffff);
  mixCode(word >>> 16);
}

/**
 * The id of the datum of the metric `metric` hashes to, at `timestamp`, in the series `seed` was
 * made from: 16 hexadecimal digits.
 */
export function agentDatumId(seed: HashLanes, metric: HashLanes, timestamp: number): string {
  laneA = seed.a;
  laneB = seed.b;
  // Words go in as 16-bit pieces: 32-bit words with their high bits set (a negative timestamp's)
  // can undo each other's mixing, which gave the timestamps -1 and 2^32 + 1 one id.
  mixWord(metric.a);
  mixWord(metric.b);
  mixWord(timestamp >>> 0);
  mixWord(Math.floor(timestamp / 4_294_967_296) >>> 0);
  const a = Math.imul(laneA ^ (laneA >>> 16), 0x85ebca6b) ^ Math.imul(laneB ^ (laneB >>> 13), 0xc2b2ae35);
  const b = Math.imul(laneB ^ (laneB >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return hex(a) + hex(b);
}
