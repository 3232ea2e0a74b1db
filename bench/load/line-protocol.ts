/*
 * The bench's data as both systems under test deliver them: InfluxDB line protocol,
 * `<metric>,resourceId=<resource> value=<sequence number> <posted at, ns>`. The value identifies
 * the datum, and the bench keeps the time each was posted, so an arrival yields its latency with
 * no clock but this machine's. The sequence number is a field, not a tag: InfluxDB creates a series
 * per tag value (and refuses writes beyond 100,000 values of one tag by default), so the data
 * spread over a fixed set of resources instead. Metric names and ids in the bench need no escaping.
 */

export interface BenchDatum {
  resourceId: string;
  value: number;
  /** Date.now() when the datum was posted. */
  postedAt: number;
}

const resources = 1_000;
const probeResource = "probe";

export function measuredDatum(sequence: number, postedAt: number): BenchDatum {
  return { resourceId: `r${sequence % resources}`, value: sequence, postedAt };
}

/** A datum that only shows a path is clear (see awaitProbe); receivers count it apart from measured data. */
export function probeDatum(attempt: number): BenchDatum {
  return { resourceId: probeResource, value: attempt, postedAt: Date.now() };
}

export const isProbe = (resourceId: string) => resourceId === probeResource;

export function formatLine(metric: string, datum: BenchDatum): string {
  return `${metric},resourceId=${datum.resourceId} value=${datum.value} ${datum.postedAt}000000\n`;
}

export interface ReceivedLine {
  metric: string;
  resourceId: string;
  value: number;
}

/**
 * The value of `key` among the comma-separated `key=value` pairs of text[start, end). Lines are
 * read in place, without splitting, since the receivers read hundreds of thousands a second.
 */
function pairValue(text: string, start: number, end: number, key: string): string | undefined {
  for (let pair = start; pair < end; ) {
    const comma = text.indexOf(",", pair);
    const pairEnd = comma === -1 || comma > end ? end : comma;
    if (text.startsWith(key, pair) && text[pair + key.length] === "=")
      return text.slice(pair + key.length + 1, pairEnd);
    pair = pairEnd + 1;
  }
  return undefined;
}

/** Where the space-separated section ending text[start, ...) ends, at most `end`. */
function sectionEnd(text: string, start: number, end: number): number {
  const space = text.indexOf(" ", start);
  return space === -1 || space > end ? end : space;
}

/**
 * Reads the line text[start, end) as either system writes it: InfluxDB re-encodes what it was
 * sent, so tags and fields may come in another order, the value as a float or an integer (`i`
 * suffix), the time optional.
 */
export function parseLine(text: string, start = 0, end = text.length): ReceivedLine | undefined {
  const keyEnd = sectionEnd(text, start, end);
  if (keyEnd === end) return undefined;
  const fieldsEnd = sectionEnd(text, keyEnd + 1, end);
  const metricEnd = text.indexOf(",", start);
  if (metricEnd === -1 || metricEnd > keyEnd) return undefined;
  const resourceId = pairValue(text, metricEnd + 1, keyEnd, "resourceId");
  const value = pairValue(text, keyEnd + 1, fieldsEnd, "value");
  if (resourceId === undefined || value === undefined) return undefined;
  const number = Number(value.endsWith("i") ? value.slice(0, -1) : value);
  return Number.isFinite(number) ? { metric: text.slice(start, metricEnd), resourceId, value: number } : undefined;
}
