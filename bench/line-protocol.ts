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

const valueOf = (pairs: readonly string[], key: string) =>
  pairs.find((pair) => pair.startsWith(`${key}=`))?.slice(key.length + 1);

/**
 * Reads a line as either system writes it: InfluxDB re-encodes what it was sent, so tags and fields
 * may come in another order, the value as a float or an integer (`i` suffix), the time optional.
 */
export function parseLine(line: string): ReceivedLine | undefined {
  const [key, fields] = line.split(" ", 2);
  if (key === undefined || fields === undefined) return undefined;
  const [metric, ...tags] = key.split(",");
  const resourceId = valueOf(tags, "resourceId");
  const value = valueOf(fields.split(","), "value");
  if (metric === undefined || resourceId === undefined || value === undefined) return undefined;
  const number = Number(value.endsWith("i") ? value.slice(0, -1) : value);
  return Number.isFinite(number) ? { metric, resourceId, value: number } : undefined;
}
