import type { ObserverReport } from "../metrics/observer-schema";
import type { SelectorSpec } from "../observers/selector-observer-schema";
import type { PackedIntakes } from "./leased-intake";

/*
 * What the overview's summary is made of, as the objects that own each part hand it over: a
 * metric's figures, an observer's report. Each carries the time its owner took it (`at`, by the
 * owner's clock): of two versions of the same thing, the later one is kept, whichever arrives last.
 */

/** A metric's figures as its object had them at `at`. */
export interface MetricFigures {
  name: string;
  at: number;
  description?: string;
  unit?: string;
  /** Its own observers (not those that follow selectors). */
  observers: number;
  dataAccepted: number;
  /** Data accepted in each of the last minutes, oldest first; the last is the minute of `at`. */
  acceptedPerMinute: number[];
  /** The timestamp of the newest datum it keeps, in ms since the epoch; null before its first. */
  latestDatumAt: number | null;
}

/** An observer as the API reports it, with what it follows when it follows selectors. */
export type SummarizedObserver = ObserverReport & Partial<SelectorSpec>;

/** An observer's report as its object had it at `at`; `metric` for a metric's observer, none for a selector observer. */
export interface ObserverSnapshot {
  id: string;
  at: number;
  metric?: string;
  report: SummarizedObserver;
}

/** Something gone since `at`: a metric (with its observers) or an observer, by name or id. */
export interface Removal {
  key: string;
  at: number;
}

/** A metric with every observer it holds: an observer of the metric missing from `observers` is gone. */
export interface MetricState {
  figures: MetricFigures;
  observers: ObserverSnapshot[];
}

/** One write to a summary shard. */
export interface SummaryUpdate {
  metrics?: MetricFigures[];
  metricStates?: MetricState[];
  observers?: ObserverSnapshot[];
  removedMetrics?: Removal[];
  removedObservers?: Removal[];
  /** Data a consumer batch delivered by leased plans, for the metrics' objects (see pending-intake.ts), packed by packLeasedIntakes. */
  leasedIntakes?: PackedIntakes;
}

/** A shard's content: live metrics and observers, and the removals of selector observers (which may be copied elsewhere). */
export interface ShardContent {
  metrics: MetricFigures[];
  observers: (ObserverSnapshot & { removed: boolean; listedAt: number })[];
}
