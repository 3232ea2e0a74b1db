import { parseSeriesSelector } from "../worker/selectors/selector-syntax";
import { metricCouldMatch } from "../worker/selectors/series-matcher";

/** What a search of the overview keeps: metrics by name and by what else is said of them, observers by what they show. */
export interface FleetSearch {
  /** Why the search is read as words rather than as the selector it looks like. */
  readonly problem?: string;
  /** Whether a metric of this name, of which `texts` are said (description, unit…), is kept. */
  keepsMetric(name: string, texts: readonly (string | undefined)[]): boolean;
  /** Whether an observer that shows `texts` (and follows `metric`, if it is a metric's) is kept. */
  keepsObserver(metric: string | undefined, texts: readonly (string | undefined)[]): boolean;
}

/** Every word (case aside) in one of the texts. */
function wordsIn(query: string): (texts: readonly (string | undefined)[]) => boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (texts) => {
    const haystack = texts.filter((text) => text !== undefined).map((text) => text.toLowerCase());
    return words.every((word) => haystack.some((text) => text.includes(word)));
  };
}

/** A query that has braces is meant as a PromQL series selector (`{job="node"}`, `node_cpu{mode!="idle"}`). */
const looksLikeSelector = (query: string) => query.includes("{");

/**
 * The search `query` makes: words that each must appear in what a row shows (its name, its
 * description, an observer's address, selectors and labels…), or a PromQL series selector, read by
 * the service's own parser, that keeps the metrics whose name it can match and their observers.
 */
export function fleetSearch(query: string): FleetSearch {
  const trimmed = query.trim();
  const hasWords = wordsIn(trimmed);
  const asWords = (problem?: string): FleetSearch => ({
    ...(problem === undefined ? {} : { problem }),
    keepsMetric: (name, texts) => hasWords([name, ...texts]),
    keepsObserver: (_, texts) => hasWords(texts),
  });
  if (!looksLikeSelector(trimmed)) return asWords();
  try {
    const selectors = [parseSeriesSelector(trimmed)];
    return {
      keepsMetric: (name) => metricCouldMatch(selectors, name),
      // A selector observer is kept when it follows this very selector.
      keepsObserver: (metric, texts) =>
        metric === undefined ? texts.includes(trimmed) : metricCouldMatch(selectors, metric),
    };
  } catch (error) {
    return asWords(`Searched as words: not a selector (${error instanceof Error ? error.message : error}).`);
  }
}
