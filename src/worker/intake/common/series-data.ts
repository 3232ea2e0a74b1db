import { type Datum, type Label, type SeriesLabels, seriesLabels } from "../../vocabulary/datum";
import { metricNameSchema } from "../../vocabulary/metric-name";
import { maxIdentifierLength } from "../../vocabulary/rdf-literal-rules";
import { agentDatumId, type HashLanes, metricHash, seriesHashSeed } from "./datum-id";
import type { LabelledPoints, RefusedPart } from "./series";

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

/** A series' labels as its key is built of them. */
interface KeyLabels {
  /** The labels but the dropped ones, sorted by key (as sent when they need no change). */
  sorted: readonly Label[];
  /** The primary label's place in `sorted`, -1 when it is none of them. */
  primaryIndex: number;
  /** The primary label when it is a primary-only pair (OTLP's resource attribute). */
  primaryOnly: Label | undefined;
}

function keyLabels(series: LabelledPoints, options: SeriesKeyOptions): KeyLabels {
  const { drop } = options;
  const sorted =
    drop.size === 0 && sortedByKey(series.labels)
      ? series.labels
      : series.labels.filter(([key]) => !drop.has(key)).sort(byKey);
  for (const name of options.primary) {
    const index = indexOfKey(sorted, name);
    if (index >= 0) return { sorted, primaryIndex: index, primaryOnly: undefined };
    const extra = series.primaryOnly === undefined || drop.has(name) ? -1 : indexOfKey(series.primaryOnly, name);
    if (extra >= 0) return { sorted, primaryIndex: -1, primaryOnly: series.primaryOnly![extra] };
  }
  return { sorted, primaryIndex: -1, primaryOnly: undefined };
}

const sameLabel = (left: Label | undefined, right: Label | undefined) =>
  left === right || (left !== undefined && right !== undefined && left[0] === right[0] && left[1] === right[1]);

/** Whether two series' labels are the same for their key, and so for their data. */
function sameKeyLabels(left: KeyLabels, right: KeyLabels): boolean {
  if (left.primaryIndex !== right.primaryIndex || left.sorted.length !== right.sorted.length) return false;
  if (!sameLabel(left.primaryOnly, right.primaryOnly)) return false;
  for (let index = 0; index < left.sorted.length; index++) {
    if (!sameLabel(left.sorted[index], right.sorted[index])) return false;
  }
  return true;
}

function keyOf({ sorted, primaryIndex, primaryOnly }: KeyLabels): string {
  const primary = primaryIndex >= 0 ? sorted[primaryIndex]![1] : primaryOnly?.[1];
  let key = primary === undefined ? "" : escapeKeyPart(primary);
  for (let index = 0; index < sorted.length; index++) {
    if (index === primaryIndex) continue;
    const [name, value] = sorted[index]!;
    if (key !== "" || primary !== undefined) key += ",";
    key += `${escapeKeyPart(name)}=${escapeKeyPart(value)}`;
  }
  return key === "" ? "-" : key;
}

/**
 * The series' resourceId: the primary label's value, then every other label sorted by key as
 * `,key=value`, each part escaped; without a primary label the sorted labels alone; without any
 * label `-`. The labels are the dropped ones left out, sorted by key (as sent when they need no change).
 */
export function seriesResourceId(series: LabelledPoints, options: SeriesKeyOptions): string {
  return keyOf(keyLabels(series, options));
}

/**
 * The labels a series' data carry: the sorted labels, each name once (the first, as the key lists
 * them, when a protocol repeated one), with a primary-only pair among them as the resource attribute.
 */
function seriesLabelsOf({ sorted, primaryOnly }: KeyLabels): SeriesLabels {
  let pairs = sorted;
  for (let index = 1; index < sorted.length; index++) {
    if (sorted[index]![0] !== sorted[index - 1]![0]) continue;
    pairs = sorted.filter((label, at) => at === 0 || label[0] !== sorted[at - 1]![0]);
    break;
  }
  if (primaryOnly === undefined) return seriesLabels(pairs);
  const [name] = primaryOnly;
  let at = 0;
  while (at < pairs.length && pairs[at]![0] < name) at++;
  return seriesLabels([...pairs.slice(0, at), primaryOnly, ...pairs.slice(at)], undefined, name);
}

function resourceIdProblem(resourceId: string): string | undefined {
  if (resourceId.length > maxIdentifierLength) {
    return `its resourceId would be ${resourceId.length} characters long; at most ${maxIdentifierLength} are accepted`;
  }
  if (controlCharacter.test(resourceId)) return "its labels hold control characters, which a resourceId may not";
  return undefined;
}

/** What a label set gives its series' data, the same for every series with the same labels. */
interface SeriesKey {
  keyLabels: KeyLabels;
  resourceId: string;
  /** Why the labels cannot make a resourceId, if they cannot. */
  problem: string | undefined;
  seed: HashLanes;
  /** What the series' data carry (but a line-protocol point's line). */
  labels: SeriesLabels;
}

/** The key of frozen labels, for the request's key options and primary-only pairs it was built for. */
interface KeptKey {
  options: SeriesKeyOptions;
  primaryOnly: LabelledPoints["primaryOnly"];
  key: SeriesKey;
}

/**
 * The keys of label sets readers share between series, for the options they were built for last:
 * requests without key parameters share one options object (agent-intake.ts), so a series sent
 * again costs no new resourceId and no hashing.
 */
const keptKeys = new WeakMap<object, KeptKey>();

/**
 * The series' key: kept across requests for frozen labels; else the key of an earlier series of
 * the request with the same labels (found by resourceId), so that the data of series with the same
 * labels share one pairs array, which a queue message tables once: a line-protocol series' lines
 * at each time, remote write's series of one target (labels the same but for `__name__`).
 */
function seriesKey(series: LabelledPoints, options: SeriesKeyOptions, requestKeys: Map<string, SeriesKey>): SeriesKey {
  const frozen = Object.isFrozen(series.labels);
  if (frozen) {
    const kept = keptKeys.get(series.labels);
    if (kept !== undefined && kept.options === options && kept.primaryOnly === series.primaryOnly) return kept.key;
  }
  const labels = keyLabels(series, options);
  const resourceId = keyOf(labels);
  let key = requestKeys.get(resourceId);
  if (key === undefined || !sameKeyLabels(key.keyLabels, labels)) {
    const problem = resourceIdProblem(resourceId);
    key = { keyLabels: labels, resourceId, problem, seed: seriesHashSeed(resourceId), labels: seriesLabelsOf(labels) };
    requestKeys.set(resourceId, key);
  }
  if (frozen) keptKeys.set(series.labels, { options, primaryOnly: series.primaryOnly, key });
  return key;
}

/** How many metric names the checks kept across requests remember. */
const maxCheckedNames = 16_384;

/**
 * Per metric name, why it is not valid or its hash, for the name limit `checkedNamesLimit` (another
 * limit starts them again): kept across requests, as an agent sends the same names at every scrape,
 * and a fleet's request holds a thousand of them. Past `maxCheckedNames` it starts again empty.
 */
const checkedNames = new Map<string, string | HashLanes>();
let checkedNamesLimit: number | undefined;

/** Checks a metric name against the limit `maxLength`: why it is not valid, or its hash. */
function metricCheck(maxLength: number): (name: string) => string | HashLanes {
  if (checkedNamesLimit !== maxLength) {
    checkedNames.clear();
    checkedNamesLimit = maxLength;
  }
  const nameSchema = metricNameSchema(maxLength);
  return (name) => {
    let checked = checkedNames.get(name);
    if (checked === undefined) {
      const result = nameSchema.safeParse(name);
      checked = result.success ? metricHash(name) : (result.error.issues[0]?.message ?? "not a valid metric name");
      if (checkedNames.size >= maxCheckedNames) checkedNames.clear();
      checkedNames.set(name, checked);
    }
    return checked;
  };
}

/**
 * The data of the readers' series, each datum with its deterministic id; series and points that
 * cannot be data (a resourceId too long, a metric name not valid) are refused, the rest kept.
 */
export function seriesToData(series: readonly LabelledPoints[], options: SeriesKeyOptions): SeriesData {
  const data: Datum[] = [];
  const refused: RefusedPart[] = [];
  const checkedMetric = metricCheck(options.maxMetricNameLength);
  const requestKeys = new Map<string, SeriesKey>();
  for (const each of series) {
    const { resourceId, problem, seed, labels: shared } = seriesKey(each, options, requestKeys);
    if (problem !== undefined) {
      refused.push({ origin: each.origin, message: problem });
      continue;
    }
    for (const { metric, value, timestamp, line } of each.points) {
      const checked = checkedMetric(metric);
      if (typeof checked === "string") {
        refused.push({ origin: each.origin, message: `${JSON.stringify(metric.slice(0, 64))}: ${checked}` });
        continue;
      }
      // A line-protocol point's labels: its series' pairs (one array, which messages table once) and its line.
      const labels = line === undefined ? shared : seriesLabels(shared.pairs, line, shared.resourceAttribute);
      data.push({ id: agentDatumId(seed, checked, timestamp), metric, timestamp, value, resourceId, labels });
    }
  }
  return { data, refused };
}
