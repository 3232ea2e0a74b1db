import type { MetricFigures, ObserverSnapshot, SummarizedObserver } from "./summary-update";

/*
 * Figures and reports as the objects hand them to the summary, for the summary's tests.
 */

export function figures(name: string, at: number, extra: Partial<MetricFigures> = {}): MetricFigures {
  return {
    name,
    at,
    observers: 0,
    dataAccepted: 0,
    acceptedPerMinute: new Array(10).fill(0),
    latestDatumAt: null,
    ...extra,
  };
}

export function report(id: string, status: Partial<SummarizedObserver["status"]> = {}): SummarizedObserver {
  return {
    id,
    format: "TOWER/JSON",
    protocol: "HTTP",
    callbackUrl: `http://${id}.example/`,
    state: "active",
    signed: false,
    headerNames: [],
    status: {
      delivered: 0,
      failed: 0,
      dead: 0,
      dropped: 0,
      rejected: 0,
      lost: 0,
      backlog: 0,
      oldestBacklogAt: null,
      nextAttemptAt: null,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastError: null,
      ...status,
    },
  } as SummarizedObserver;
}

/** A metric's observer, or a selector observer (no metric) following `match`. */
export function snapshot(
  id: string,
  at: number,
  options: { metric?: string; match?: string[]; status?: Partial<SummarizedObserver["status"]> } = {},
): ObserverSnapshot {
  const base = report(id, options.status);
  return {
    id,
    at,
    ...(options.metric === undefined ? {} : { metric: options.metric }),
    report: options.match === undefined ? base : { ...base, match: options.match },
  };
}
