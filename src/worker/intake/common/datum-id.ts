/*
 * Datum ids for the agents' data, which carry none: a hash of (metric, resourceId, timestamp), so a
 * batch a client sends again (Telegraf and Prometheus resend on any failure) gives the same ids.
 * Two 32-bit multiplicative lanes make 64 bits, enough that distinct series at one instant do not
 * share an id in practice; the hash is no defence against a sender choosing collisions, nor needs
 * to be: a sender chooses its RDF/JSON ids freely too.
 *
 * The lanes are local numbers, never stored in shared variables: an int32 beyond the small-integer
 * range, stored outside a function's registers, is a heap allocation, and this runs once per datum.
 */

const multiplierA = 0x9e3779b1;
const multiplierB = 0x5f356495;

const mixCode = (lane: number, code: number, multiplier: number) => Math.imul(lane ^ code, multiplier);

/**
 * Mixes a 32-bit word in 16-bit pieces, like characters: 32-bit words with their high bits set (a
 * negative timestamp's) could undo each other's mixing, which gave the timestamps -1 and 2^32 + 1 one id.
 */
const mixWord = (lane: number, word: number, multiplier: number) =>
  mixCode(mixCode(lane, word & 0xffff, multiplier), word >>> 16, multiplier);

/** The two lanes of a hash: a series' resourceId's, computed once per series, or a metric name's, once per request. */
export interface HashLanes {
  readonly a: number;
  readonly b: number;
}

/** Both lanes of a text's hash, in one pass over its characters. */
function lanesOf(text: string, seedA: number, seedB: number): HashLanes {
  let a = seedA;
  let b = seedB;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = mixCode(a, code, multiplierA);
    b = mixCode(b, code, multiplierB);
  }
  // A separator no character can take, so that texts of different lengths stay apart.
  return { a: mixCode(a, 0x1_0000, multiplierA), b: mixCode(b, 0x1_0000, multiplierB) };
}

export const seriesHashSeed = (resourceId: string): HashLanes => lanesOf(resourceId, 0x811c9dc5, 0x01000193);

export const metricHash = (metric: string): HashLanes => lanesOf(metric, 0x27d4eb2f, 0x165667b1);

/** One lane of a series' hash with both halves of the metric's hash mixed in, then the timestamp's two words. */
function mixDatum(lane: number, metric: HashLanes, timestamp: number, multiplier: number): number {
  const withMetric = mixWord(mixWord(lane, metric.a, multiplier), metric.b, multiplier);
  const withLow = mixWord(withMetric, timestamp >>> 0, multiplier);
  return mixWord(withLow, Math.floor(timestamp / 4_294_967_296) >>> 0, multiplier);
}

const hexCodes = Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));
const hexDigit = (word: number, shift: number) => hexCodes[(word >>> shift) & 0xf]!;

/** Two 32-bit words as 16 hexadecimal digits, built as one string. */
function hex64(high: number, low: number): string {
  return String.fromCharCode(
    hexDigit(high, 28),
    hexDigit(high, 24),
    hexDigit(high, 20),
    hexDigit(high, 16),
    hexDigit(high, 12),
    hexDigit(high, 8),
    hexDigit(high, 4),
    hexDigit(high, 0),
    hexDigit(low, 28),
    hexDigit(low, 24),
    hexDigit(low, 20),
    hexDigit(low, 16),
    hexDigit(low, 12),
    hexDigit(low, 8),
    hexDigit(low, 4),
    hexDigit(low, 0),
  );
}

/**
 * The id of the datum of the metric `metric` hashes to, at `timestamp`, in the series `seed` was
 * made from: 16 hexadecimal digits.
 */
export function agentDatumId(seed: HashLanes, metric: HashLanes, timestamp: number): string {
  const laneA = mixDatum(seed.a, metric, timestamp, multiplierA);
  const laneB = mixDatum(seed.b, metric, timestamp, multiplierB);
  const a = Math.imul(laneA ^ (laneA >>> 16), 0x85ebca6b) ^ Math.imul(laneB ^ (laneB >>> 13), 0xc2b2ae35);
  const b = Math.imul(laneB ^ (laneB >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return hex64(a, b);
}
