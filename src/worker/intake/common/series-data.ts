import { metricNameSchema } from "../../metrics/metric-name";
import type { Datum } from "../datum";
import { maxIdentifierLength } from "../rdf-literal-rules";
import { agentDatumId, type HashLanes, metricHash, seriesHashSeed } from "./datum-id";
import type { Label, LabelledPoints, RefusedPart } from "./series";

/** How a request asks for its series' keys to be built (its `resource=` and `drop=` parameters). */
export interface SeriesKeyOptions {
  /** Labels that may be the primary label, the first present wins. */
  primary: readonly string[];
  /** Labels removed before the key is built. */
  drop: ReadonlySet<string>;
  maxMetricNameLength: number;
}

export interface SeriesData {
  data: Datum[];
  refused: RefusedPart[];
}

/** The characters a key's labels are separated by, which labels' own keys and values escape. */
const keySyntax = /[\\,= ]/g;
const hasKeySyntax = /[\\,= ]/;
const controlCharacter = /\p{Cc}/u;

const escapeKeyPart = (text: string) => (hasKeySyntax.test(text) ? text.replace(keySyntax, "\\$&") : text);

const byKey = (left: Label, right: Label) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0);

/** Whether each label's key sorts after the one before: as Prometheus and most agents send them. */
function sortedByKey(labels: readonly Label[]): boolean {
  for (let index = 1; index < labels.length; index++) if (labels[index - 1]![0] >= labels[index]![0]) return false;
  return true;
}

function indexOfKey(labels: readonly Label[], key: string): number {
  for (let index = 0; index < labels.length; index++) if (labels[index]![0] === key) return index;
  return -1;
}

/**
 * The series' resourceId: the primary label's value, then every other label sorted by key as
 * `,key=value`, each part escaped; without a primary label the sorted labels alone; without any
 * label `-`. The labels are the dropped ones left out, sorted by key (as sent when they need no change).
 */
export function seriesResourceId(series: LabelledPoints, options: SeriesKeyOptions): string {
  const { drop } = options;
  const labels =
    drop.size === 0 && sortedByKey(series.labels)
      ? series.labels
      : series.labels.filter(([key]) => !drop.has(key)).sort(byKey);
  // The primary label's value, and its place among the labels (-1 when it is not one of them).
  let primary: string | undefined;
  let primaryIndex = -1;
  for (const name of options.primary) {
    primaryIndex = indexOfKey(labels, name);
    if (primaryIndex >= 0) {
      primary = labels[primaryIndex]![1];
      break;
    }
    const extra = series.primaryOnly === undefined || drop.has(name) ? -1 : indexOfKey(series.primaryOnly, name);
    if (extra >= 0) {
      primary = series.primaryOnly![extra]![1];
      break;
    }
  }
  let key = primary === undefined ? "" : escapeKeyPart(primary);
  for (let index = 0; index < labels.length; index++) {
    if (index === primaryIndex) continue;
    const [name, value] = labels[index]!;
    if (key !== "" || primary !== undefined) key += ",";
    key += `${escapeKeyPart(name)}=${escapeKeyPart(value)}`;
  }
  return key === "" ? "-" : key;
}

function resourceIdProblem(resourceId: string): string | undefined {
  if (resourceId.length > maxIdentifierLength) {
    return `its resourceId would be ${resourceId.length} characters long; at most ${maxIdentifierLength} are accepted`;
  }
  if (controlCharacter.test(resourceId)) return "its labels hold control characters, which a resourceId may not";
  return undefined;
}

/** The key of a label set (with its pairs for the primary label) for a request's key options. */
interface SeriesKey {
  options: SeriesKeyOptions;
  primaryOnly: LabelledPoints["primaryOnly"];
  resourceId: string;
  /** Why the labels cannot make a resourceId, if they cannot. */
  problem: string | undefined;
  seed: HashLanes;
}

/**
 * The keys of label sets readers share between series, for the options they were built for last:
 * requests without key parameters share one options object (agent-intake.ts), so a series sent
 * again costs no new resourceId and no hashing.
 */
const keptKeys = new WeakMap<object, SeriesKey>();

function seriesKey(series: LabelledPoints, options: SeriesKeyOptions): SeriesKey {
  const shared = Object.isFrozen(series.labels);
  if (shared) {
    const kept = keptKeys.get(series.labels);
    if (kept !== undefined && kept.options === options && kept.primaryOnly === series.primaryOnly) return kept;
  }
  const resourceId = seriesResourceId(series, options);
  const problem = resourceIdProblem(resourceId);
  const key = { options, primaryOnly: series.primaryOnly, resourceId, problem, seed: seriesHashSeed(resourceId) };
  if (shared) keptKeys.set(series.labels, key);
  return key;
}

/**
 * The data of the readers' series, each datum with its deterministic id; series and points that
 * cannot be data (a resourceId too long, a metric name not valid) are refused, the rest kept.
 */
export function seriesToData(series: readonly LabelledPoints[], options: SeriesKeyOptions): SeriesData {
  const data: Datum[] = [];
  const refused: RefusedPart[] = [];
  const nameSchema = metricNameSchema(options.maxMetricNameLength);
  // Per metric name of the request: why it is not valid, or its hash; a request repeats few names.
  const metrics = new Map<string, string | HashLanes>();
  const checkedMetric = (name: string) => {
    let checked = metrics.get(name);
    if (checked === undefined) {
      const result = nameSchema.safeParse(name);
      checked = result.success ? metricHash(name) : (result.error.issues[0]?.message ?? "not a valid metric name");
      metrics.set(name, checked);
    }
    return checked;
  };
  for (const each of series) {
    const { resourceId, problem, seed } = seriesKey(each, options);
    if (problem !== undefined) {
      refused.push({ origin: each.origin, message: problem });
      continue;
    }
    for (const { metric, value, timestamp } of each.points) {
      const checked = checkedMetric(metric);
      if (typeof checked === "string") {
        refused.push({ origin: each.origin, message: `${JSON.stringify(metric.slice(0, 64))}: ${checked}` });
        continue;
      }
      data.push({ id: agentDatumId(seed, checked, timestamp), metric, timestamp, value, resourceId });
    }
  }
  return { data, refused };
}
