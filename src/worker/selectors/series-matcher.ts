/*
 * Selectors turned into a predicate over series, for the intake consumer's path: compiled once per
 * selector object (and kept while it lives), each matcher reading its value directly, the metric
 * name matchers first so that most series of other metrics are turned away by one comparison.
 */
import { compileValueTest, isRegexOperator, type LabelMatcher, type ValueTest } from "./label-matcher";
import { metricNameLabel, type SeriesSelector } from "./selector-syntax";

/** What a selector sees of a datum: its labels, plus `__name__` and `__resource__`. */
export interface SeriesView {
  readonly metric: string;
  readonly resourceId: string;
  /** Absent for data that carry no labels (RDF/JSON, the data collectors, the rules). */
  readonly labels: readonly (readonly [string, string])[] | undefined;
}

export type SeriesPredicate = (series: SeriesView) => boolean;

/** The label a datum's resourceId is matched as, so that data without labels can be selected too. */
export const resourceLabel = "__resource__";

interface CompiledMatcher {
  /** `__name__` and `__resource__` read the datum's metric and resourceId, even where its labels have them too. */
  readonly reads: "metric" | "resource" | "label";
  readonly label: string;
  readonly test: ValueTest;
  /** Matchers run cheapest first: the metric name, then comparisons, then regexes. */
  readonly cost: number;
}

type CompiledSelector = readonly CompiledMatcher[];

const compiledSelectors = new WeakMap<SeriesSelector, CompiledSelector>();

/** A series matches when any selector matches it. */
export function compileSelectors(selectors: readonly SeriesSelector[]): SeriesPredicate {
  const compiled = selectors.map(compileSelector);
  return (series) => {
    for (const selector of compiled) if (matchesEvery(selector, series)) return true;
    return false;
  };
}

/**
 * Whether some series of the metric could match, whatever its labels and resourceId: false when
 * each selector has a metric name matcher that refuses the name.
 */
export function metricCouldMatch(selectors: readonly SeriesSelector[], metric: string): boolean {
  return selectors.some((selector) =>
    compileSelector(selector).every((matcher) => matcher.reads !== "metric" || matcher.test(metric)),
  );
}

/** Whether the metric's name alone decides for every series: each selector matches on `__name__` only. */
export function nameDecides(selectors: readonly SeriesSelector[]): boolean {
  return selectors.every((selector) => selector.matchers.every((matcher) => matcher.name === metricNameLabel));
}

function matchesEvery(selector: CompiledSelector, series: SeriesView): boolean {
  for (const matcher of selector) if (!matcher.test(valueRead(matcher, series))) return false;
  return true;
}

function valueRead(matcher: CompiledMatcher, series: SeriesView): string {
  if (matcher.reads === "metric") return series.metric;
  if (matcher.reads === "resource") return series.resourceId;
  if (series.labels !== undefined) for (const [name, value] of series.labels) if (name === matcher.label) return value;
  return "";
}

function compileSelector(selector: SeriesSelector): CompiledSelector {
  let matchers = compiledSelectors.get(selector);
  if (matchers === undefined) {
    matchers = selector.matchers.map(compileMatcher).sort((a, b) => a.cost - b.cost);
    compiledSelectors.set(selector, matchers);
  }
  return matchers;
}

function compileMatcher(matcher: LabelMatcher): CompiledMatcher {
  const reads = matcher.name === metricNameLabel ? "metric" : matcher.name === resourceLabel ? "resource" : "label";
  const cost = (reads === "metric" ? 0 : 2) + (isRegexOperator(matcher.operator) ? 1 : 0);
  return { reads, label: matcher.name, test: compileValueTest(matcher), cost };
}
