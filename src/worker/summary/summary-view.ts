import type { usage } from "../common/usage";
import { minutesCounted } from "../metrics/recent-data";
import { followedMetrics, followedNamesKey } from "./followed-metrics";
import type { MergedSummary } from "./shard-merge";
import type { ListedObserver, MetricSummary, Summary } from "./summary-schema";
import type { MetricFigures, SummarizedObserver } from "./summary-update";

const minuteMs = 60_000;

/** Per-minute counts taken in minute `from`, as they stand in minute `to`: the minutes since then counted nothing. */
export function perMinuteAt(counts: readonly number[], from: number, to: number): number[] {
  const shift = Math.max(0, to - from);
  return counts.map((_, index) => counts[index + shift] ?? 0);
}

/** Data per second over the previous whole minute and the current one so far. */
export function dataPerSecond(perMinute: readonly number[], now: number): number {
  const recent = (perMinute.at(-2) ?? 0) + (perMinute.at(-1) ?? 0);
  return recent / (60 + (now % minuteMs) / 1000);
}

/** Whether the observer's latest attempt failed. */
function failing(observer: SummarizedObserver): boolean {
  const { lastFailureAt, lastSuccessAt } = observer.status;
  return lastFailureAt !== null && (lastSuccessAt === null || lastFailureAt > lastSuccessAt);
}

/** Every observer as GET /observers lists them: a selector observer with how many metrics it follows now, a metric's with its metric. */
export function listedObservers(merged: MergedSummary): ListedObserver[] {
  const names = merged.metrics.map((figures) => figures.name);
  const namesKey = followedNamesKey(names);
  return merged.observers.map(
    ({ metric, report }) =>
      (metric === undefined
        ? { ...report, follows: followedMetrics(report.match, names, namesKey) }
        : { ...report, metric }) as ListedObserver,
  );
}

function metricSummary(figures: MetricFigures, observers: readonly SummarizedObserver[], now: number): MetricSummary {
  const acceptedPerMinute = perMinuteAt(
    figures.acceptedPerMinute,
    Math.floor(figures.at / minuteMs),
    Math.floor(now / minuteMs),
  );
  return {
    id: figures.name,
    ...(figures.description === undefined ? {} : { description: figures.description }),
    ...(figures.unit === undefined ? {} : { unit: figures.unit }),
    observers: figures.observers,
    dataAccepted: figures.dataAccepted,
    acceptedPerMinute,
    dataPerSecond: dataPerSecond(acceptedPerMinute, now),
    latestDatumAt: figures.latestDatumAt,
    failingObservers: observers.filter(failing).length,
    backloggedObservers: observers.filter((observer) => observer.status.backlog > 0).length,
    backlog: observers.reduce((total, observer) => total + observer.status.backlog, 0),
  };
}

/** The summary as of `now`, with the answering instance's intake counts per way in. */
export function summaryView(
  merged: MergedSummary,
  now: number,
  counts: Pick<typeof usage, "since" | "intake">,
): Summary {
  const observersOf = Map.groupBy(
    merged.observers.filter((observer) => observer.metric !== undefined),
    (observer) => observer.metric!,
  );
  const metrics = merged.metrics.map((figures) =>
    metricSummary(
      figures,
      (observersOf.get(figures.name) ?? []).map((observer) => observer.report),
      now,
    ),
  );
  const acceptedPerMinute = metrics.reduce(
    (total, metric) => total.map((data, index) => data + (metric.acceptedPerMinute[index] ?? 0)),
    new Array<number>(minutesCounted).fill(0),
  );
  return {
    at: new Date(now).toISOString(),
    intake: {
      dataAccepted: metrics.reduce((total, metric) => total + metric.dataAccepted, 0),
      acceptedPerMinute,
      dataPerSecond: dataPerSecond(acceptedPerMinute, now),
      since: counts.since,
      routes: counts.intake,
    },
    metrics,
    observers: listedObservers(merged),
  };
}
