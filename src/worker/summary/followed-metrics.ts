import { parseSeriesSelector } from "../selectors/selector-syntax";
import { metricCouldMatch } from "../selectors/series-matcher";
import { stringHash } from "./shard-key";

/**
 * How many metrics each selector observer's selectors can match by name, counted once per isolate
 * for each set of selectors and set of names: a summary of a thousand selector observers and
 * metrics does not match them all on every read.
 */
const counted = new Map<string, { names: string; count: number }>();

/** A short key of a set of names (in a given order): their number and a hash of them all. */
export function followedNamesKey(names: readonly string[]): string {
  return `${names.length}:${stringHash(names.join("\n"))}`;
}

/** How many of `names` the selectors can match (an observer selecting through the model alone: all). */
export function followedMetrics(
  match: readonly string[] | undefined,
  names: readonly string[],
  namesKey = followedNamesKey(names),
): number {
  if (match === undefined) return names.length;
  const selectorsKey = JSON.stringify(match);
  const known = counted.get(selectorsKey);
  if (known?.names === namesKey) return known.count;
  const selectors = match.map(parseSeriesSelector);
  const count = names.filter((name) => metricCouldMatch(selectors, name)).length;
  counted.set(selectorsKey, { names: namesKey, count });
  return count;
}
