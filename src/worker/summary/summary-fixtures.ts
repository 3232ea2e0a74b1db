import { noDeliveriesYet } from "../../../test/support/delivery-status";
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
      ...noDeliveriesYet,
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
