import type { MetricFigures, ObserverSnapshot, ShardContent } from "./summary-update";

/** An observer as the summary lists it: its latest report, and since when it is listed. */
export type ListedSnapshot = ObserverSnapshot & { listedAt: number };

/** The shards' content as one picture: every live metric and observer in its latest version. */
export interface MergedSummary {
  /** By name, in code point order. */
  metrics: MetricFigures[];
  /** Selector observers first, then each metric's (by metric); each in the order they were first listed. */
  observers: ListedSnapshot[];
}

const byCodePoint = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0);

/**
 * Merges what the shards hold. A metric lives in one shard; a selector observer's report may be
 * copied in several (a batch writes it where the batch's metrics are), its latest version counting,
 * and its removal when that is the latest.
 */
export function mergeShards(contents: readonly ShardContent[]): MergedSummary {
  const metrics = new Map<string, MetricFigures>();
  const observers = new Map<string, ShardContent["observers"][number]>();
  for (const content of contents) {
    for (const figures of content.metrics) {
      const kept = metrics.get(figures.name);
      if (!kept || kept.at < figures.at) metrics.set(figures.name, figures);
    }
    for (const observer of content.observers) {
      const kept = observers.get(observer.id);
      const listedAt = Math.min(observer.listedAt, kept?.listedAt ?? observer.listedAt);
      const latest = !kept || kept.at < observer.at || (kept.at === observer.at && observer.removed) ? observer : kept;
      observers.set(observer.id, { ...latest, listedAt });
    }
  }
  const live = [...observers.values()]
    .filter((observer) => !observer.removed)
    .map(({ removed: _, ...observer }) => observer);
  const selectorFirst = (observer: ListedSnapshot) => (observer.metric === undefined ? "" : `\u0001${observer.metric}`);
  return {
    metrics: [...metrics.values()].sort((left, right) => byCodePoint(left.name, right.name)),
    observers: live.sort(
      (left, right) =>
        byCodePoint(selectorFirst(left), selectorFirst(right)) ||
        left.listedAt - right.listedAt ||
        byCodePoint(left.id, right.id),
    ),
  };
}
