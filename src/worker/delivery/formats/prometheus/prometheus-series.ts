import { getOrCreate } from "../../../common/get-or-create";
import type { Label, SeriesLabels } from "../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { rowDouble } from "../../../vocabulary/row-value";
import { byLabelName, type LabelChanger, labelChanger } from "../label-changes";

/*
 * The series a PROMETHEUS observer receives (docs/API.md, "Outputs for metric backends"): the
 * metric name as `__name__`, the datum's labels (or its resourceId as `resource`), names made valid
 * for Prometheus, then the observer's label changes. Data of the same labels, of any run, are one
 * series, its samples in timestamp order.
 */

/** A series to write: its labels and its samples, as columns. */
export interface PrometheusSeries {
  /** Sorted by name (byte order: the names are ASCII), each name once, `__name__` among them. */
  readonly labels: readonly Label[];
  /** Milliseconds since the epoch, ascending; equal ones in the order the data came. */
  readonly timestamps: number[];
  readonly values: number[];
}

export const metricNameLabel = "__name__";
/** The label that carries the resourceId of data without labels. */
export const resourceLabel = "resource";

const validMetricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const metricNameMisfit = /[^a-zA-Z0-9_:]/gu;
const validLabelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const labelNameMisfit = /[^a-zA-Z0-9_]/gu;
const leadingDigit = /^[0-9]/;

/** Each character (code point) `misfit` matches replaced by `_`, a leading digit prefixed with `_`. */
function repaired(name: string, valid: RegExp, misfit: RegExp): string {
  if (valid.test(name)) return name;
  const replaced = name.replace(misfit, "_");
  // An empty name is made valid too, so that one label cannot get a whole request refused.
  return replaced === "" || leadingDigit.test(replaced) ? `_${replaced}` : replaced;
}

/** A metric name as a valid Prometheus metric name: characters outside `[a-zA-Z0-9_:]` as `_`. */
export const prometheusMetricName = (metric: string) => repaired(metric, validMetricName, metricNameMisfit);

/** A label name as a valid Prometheus label name: characters outside `[a-zA-Z0-9_]` as `_`. */
export const prometheusLabelName = (name: string) => repaired(name, validLabelName, labelNameMisfit);

/**
 * The labels of a series: `__name__` the metric's (a datum label that becomes `__name__` gives
 * way to it, as in Prometheus's own OTLP translation); labels whose names become the same, their
 * values joined with `;` in the order of their names as they came (sorted, as SeriesLabels are);
 * sorted by name, then changed by the observer's additions (which replace) and drops.
 */
function seriesLabelsOf(metricName: string, pairs: readonly Label[], change: LabelChanger): readonly Label[] {
  const labels = new Map<string, string>();
  for (const [name, value] of pairs) {
    const valid = prometheusLabelName(name);
    if (valid === metricNameLabel) continue;
    const joined = labels.get(valid);
    labels.set(valid, joined === undefined ? value : `${joined};${value}`);
  }
  labels.set(metricNameLabel, metricName);
  return change([...labels].sort(byLabelName));
}

/** A label set as one string, different for different sets: names hold no `=`, values are measured. */
function keyOf(labels: readonly Label[]): string {
  let key = "";
  for (const [name, value] of labels) key += `${name}=${value.length}:${value}`;
  return key;
}

/** What a source's labels (its pairs, none for data without labels) come to: the series' labels, and their key. */
interface Labelling {
  pairs: readonly Label[] | undefined;
  labels: readonly Label[];
  key: string;
}

/** Per resourceId, what the sources with it came to: mostly one, the pairs of a series making its resourceId. */
type Labellings = Map<string, Labelling[]>;

/** Sources remembered across payloads before the memory starts again. */
const sourcesRemembered = 100_000;

/**
 * Per metric name, what each source's labels came to for observers without label changes, found
 * by the resourceId and the pairs' content (a batch's messages each carry the same series with
 * labels of their own): worked out once per isolate rather than once per series of each message.
 */
const unchangedLabellings = new Map<string, Labellings>();
let unchangedSources = 0;

/** Where a run's labellings are found: shared by the runs of observers without changes, the payload's own otherwise. */
function labellingsOf(metricName: string, changes: LabelChanges | undefined): Labellings {
  if (changes !== undefined) return new Map();
  return getOrCreate(unchangedLabellings, metricName, () => new Map());
}

/** Counts a source newly remembered for observers without changes; past the bound, the memory starts again. */
function countUnchangedSource(): void {
  if (++unchangedSources <= sourcesRemembered) return;
  unchangedLabellings.clear();
  unchangedSources = 1;
}

function samePairs(left: readonly Label[] | undefined, right: readonly Label[] | undefined): boolean {
  if (left === right) return true;
  if (left === undefined || right === undefined || left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    const [leftName, leftValue] = left[index]!;
    const [rightName, rightValue] = right[index]!;
    if (leftName !== rightName || leftValue !== rightValue) return false;
  }
  return true;
}

/** What the source of `resourceId` and `pairs` comes to, worked out (and remembered in `labellings`) the first time. */
function labellingOf(
  labellings: Labellings,
  metricName: string,
  resourceId: string,
  pairs: readonly Label[] | undefined,
  change: LabelChanger,
  shared: boolean,
): Labelling {
  let known = labellings.get(resourceId);
  if (known !== undefined) {
    for (let index = 0; index < known.length; index++) {
      if (samePairs(known[index]!.pairs, pairs)) return known[index]!;
    }
  }
  const labels = seriesLabelsOf(metricName, pairs ?? [[resourceLabel, resourceId]], change);
  const labelling = { pairs, labels, key: keyOf(labels) };
  if (shared) countUnchangedSource();
  if (known === undefined) {
    known = [];
    labellings.set(resourceId, known);
  }
  known.push(labelling);
  return labelling;
}

/**
 * The series of the runs' data, in the order each first appears. Labels are worked out once per
 * source, a resourceId and its pairs (for observers without label changes, once per isolate); a
 * run's rows of one series, which come one after the other, find it once.
 */
export function prometheusSeries(runs: readonly MetricRun[], changes?: LabelChanges): PrometheusSeries[] {
  const change = labelChanger(changes);
  const series = new Map<string, PrometheusSeries>();
  for (const [metric, rows] of runs) {
    const metricName = prometheusMetricName(metric);
    const labellings = labellingsOf(metricName, changes);
    let lastSource: SeriesLabels | string | undefined;
    let target: PrometheusSeries | undefined;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      const labels = row[4];
      const source = labels ?? row[3];
      if (source !== lastSource || target === undefined) {
        lastSource = source;
        const labelling = labellingOf(labellings, metricName, row[3], labels?.pairs, change, changes === undefined);
        target = series.get(labelling.key);
        if (target === undefined) {
          target = { labels: labelling.labels, timestamps: [], values: [] };
          series.set(labelling.key, target);
        }
      }
      target.timestamps.push(row[1]);
      target.values.push(rowDouble(row[2]));
    }
  }
  const all = [...series.values()];
  for (const each of all) sortByTime(each);
  return all;
}

/** Puts a series' samples in timestamp order, keeping the order of equal timestamps. */
function sortByTime({ timestamps, values }: PrometheusSeries): void {
  let sorted = true;
  for (let index = 1; index < timestamps.length && sorted; index++)
    sorted = timestamps[index - 1]! <= timestamps[index]!;
  if (sorted) return;
  // Array.prototype.sort is stable: equal timestamps keep their order.
  const order = timestamps.map((_, index) => index).sort((left, right) => timestamps[left]! - timestamps[right]!);
  const oldTimestamps = [...timestamps];
  const oldValues = [...values];
  order.forEach((from, to) => {
    timestamps[to] = oldTimestamps[from]!;
    values[to] = oldValues[from]!;
  });
}
