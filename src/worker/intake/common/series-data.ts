import { metricNameSchema } from "../../metrics/metric-name";
import type { Datum } from "../datum";
import { maxIdentifierLength } from "../rdf-literal-rules";
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

type Label = readonly [key: string, value: string];

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
 * The labels but the dropped ones, sorted by key (the labels as sent when they need no change), the
 * primary label's value, and its place among them (-1 when it is not one of them).
 */
function splitLabels(series: LabelledPoints, options: SeriesKeyOptions): [readonly Label[], string?, number?] {
  const { drop } = options;
  const kept =
    drop.size === 0 && sortedByKey(series.labels)
      ? series.labels
      : series.labels.filter(([key]) => !drop.has(key)).sort(byKey);
  for (const name of options.primary) {
    const index = indexOfKey(kept, name);
    if (index >= 0) return [kept, kept[index]![1], index];
    const extra = series.primaryOnly?.find(([key]) => key === name && !drop.has(key));
    if (extra) return [kept, extra[1], -1];
  }
  return [kept];
}

/**
 * The series' resourceId: the primary label's value, then every other label sorted by key as
 * `,key=value`, each part escaped; without a primary label the sorted labels alone; without any
 * label `-`.
 */
export function seriesResourceId(series: LabelledPoints, options: SeriesKeyOptions): string {
  const [labels, primary, primaryIndex] = splitLabels(series, options);
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
    const resourceId = seriesResourceId(each, options);
    const problem = resourceIdProblem(resourceId);
    if (problem) {
      refused.push({ origin: each.origin, message: problem });
      continue;
    }
    const seed = seriesHashSeed(resourceId);
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
