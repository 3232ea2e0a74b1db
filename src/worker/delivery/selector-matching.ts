import { datumResource } from "../observers/model-selection/datum-resource";
import { type CurrentModel, resourceMatcher } from "../observers/model-selection/model-view-cache";
import { parseSeriesSelector } from "../selectors/selector-syntax";
import { compileSelectors, metricCouldMatch, nameDecides, type SeriesPredicate } from "../selectors/series-matcher";
import type { DatumRow } from "../vocabulary/datum";
import type { MetricRun, SelectorEntry } from "../vocabulary/delivery";

/** Series this isolate numbers before it starts again; a fleet's series fit many times over. */
const seriesRemembered = 100_000;

/**
 * Every series the isolate has met, numbered once: a datum's series is looked up once per batch,
 * and each observer keeps what its selectors said of each series by that number, so an observer
 * costs an array read per datum.
 */
const seriesNumbers = new Map<string, number>();
/** Which numbering the numbers belong to: it starts again when too many series were met. */
let numbering = 0;

/** One observer's selectors, compiled, and what they said of each series already seen in this isolate. */
interface CompiledEntry {
  key: string;
  predicate: SeriesPredicate;
  /** Per metric name: whether any series of it can match. */
  metrics: Map<string, boolean>;
  /** Per series number of `numbering`: whether it matches. */
  series: (boolean | undefined)[];
  numbering: number;
  couldMatch: (metric: string) => boolean;
  /** Whether a metric that could match matches in every series: the selectors read the name only, and the model is not asked. */
  byNameOnly: boolean;
}

const compiledEntries = new Map<string, CompiledEntry>();

/** The entry's selection through the model, as a predicate over series. */
function modelPredicate(entry: SelectorEntry, model: CurrentModel | undefined): SeriesPredicate {
  if (entry.resources === undefined) return () => true;
  if (model === undefined)
    throw new Error(`the selector observer ${entry.id} selects through the model, which was not read`);
  const matches = resourceMatcher(model, entry.resources);
  return ({ resourceId, labels }) => matches(datumResource(resourceId, labels !== undefined));
}

/**
 * The entry's selectors, compiled once per isolate: again only when what it follows changed, or,
 * for a selection through the model, when the model did.
 */
function compiled(entry: SelectorEntry, model: CurrentModel | undefined): CompiledEntry {
  const key = JSON.stringify([entry.match ?? null, entry.resources ?? null, entry.resources && model?.version]);
  const known = compiledEntries.get(entry.id);
  if (known?.key === key) return known;
  const selectors = (entry.match ?? []).map(parseSeriesSelector);
  const byModel = modelPredicate(entry, model);
  const bySelectors = entry.match === undefined ? () => true : compileSelectors(selectors);
  const made: CompiledEntry = {
    key,
    predicate: (series) => bySelectors(series) && byModel(series),
    metrics: new Map(),
    series: [],
    numbering,
    couldMatch: entry.match === undefined ? () => true : (metric) => metricCouldMatch(selectors, metric),
    byNameOnly: entry.match !== undefined && entry.resources === undefined && nameDecides(selectors),
  };
  compiledEntries.set(entry.id, made);
  return made;
}

/** What identifies a series to a selector: its metric, its resourceId and (labels aside from values the resourceId holds) its label names. */
function seriesKey(metric: string, row: DatumRow): string {
  const labels = row[4];
  if (labels === undefined) return `${metric}\u0000${row[3]}`;
  let key = `${metric}\u0000${row[3]}\u0001`;
  for (const [name] of labels.pairs) key += `${name}\u0000`;
  return key;
}

/** The series number of each row. */
function seriesNumbersOf(metric: string, rows: readonly DatumRow[]): number[] {
  if (seriesNumbers.size + rows.length > seriesRemembered) {
    seriesNumbers.clear();
    numbering++;
  }
  // A series' rows mostly come one after another, sharing their resourceId and label set: those
  // take the number of the row before without a key.
  let before: DatumRow | undefined;
  let beforeNumber = 0;
  return rows.map((row) => {
    if (before !== undefined && before[3] === row[3] && before[4] === row[4]) return beforeNumber;
    const key = seriesKey(metric, row);
    let number = seriesNumbers.get(key);
    if (number === undefined) {
      number = seriesNumbers.size;
      seriesNumbers.set(key, number);
    }
    before = row;
    beforeNumber = number;
    return number;
  });
}

/**
 * The rows of one metric that the observer's selectors match: the same array when all match (as a
 * metric's own observers get it), none when the metric's name cannot match, and all when the name
 * alone decides. Otherwise a series is judged once per isolate; after that it costs an array read
 * per datum. `numbers` gives each row's series
 * number, made when first needed and shared by all observers.
 */
function selectedRows(
  entry: SelectorEntry,
  metric: string,
  rows: readonly DatumRow[],
  numbers: () => readonly number[],
  model: CurrentModel | undefined,
): readonly DatumRow[] {
  const selector = compiled(entry, model);
  let could = selector.metrics.get(metric);
  if (could === undefined) {
    could = selector.couldMatch(metric);
    selector.metrics.set(metric, could);
  }
  if (!could) return [];
  if (selector.byNameOnly) return rows;
  const series = numbers();
  if (selector.numbering !== numbering) {
    selector.series = [];
    selector.numbering = numbering;
  }
  let selected: DatumRow[] | undefined;
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    let matches = selector.series[series[index]!];
    if (matches === undefined) {
      matches = selector.predicate({ metric, resourceId: row[3], labels: row[4]?.pairs });
      selector.series[series[index]!] = matches;
    }
    if (matches) selected?.push(row);
    else selected ??= rows.slice(0, index);
  }
  return selected ?? rows;
}

/**
 * The batch's data each selector observer wants, as runs of one metric each, in the batch's order of
 * metrics. `model` is needed when an observer selects through the model.
 */
export function selectBatch(
  metrics: readonly { metric: string; rows: readonly DatumRow[]; selectors: readonly SelectorEntry[] }[],
  model?: CurrentModel,
): Map<string, { entry: SelectorEntry; runs: MetricRun[] }> {
  const wanted = new Map<string, { entry: SelectorEntry; runs: MetricRun[] }>();
  for (const { metric, rows, selectors } of metrics) {
    let numbers: number[] | undefined;
    const numbersOnce = () => {
      numbers ??= seriesNumbersOf(metric, rows);
      return numbers;
    };
    for (const entry of selectors) {
      const selected = selectedRows(entry, metric, rows, numbersOnce, model);
      if (selected.length === 0) continue;
      let observer = wanted.get(entry.id);
      if (!observer) {
        observer = { entry, runs: [] };
        wanted.set(entry.id, observer);
      }
      observer.runs.push([metric, selected]);
    }
  }
  return wanted;
}
