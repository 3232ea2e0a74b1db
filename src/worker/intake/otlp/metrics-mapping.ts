import type { Label } from "../../vocabulary/datum";
import type { LabelledPoints, RefusedPart, SeriesPoint } from "../common/series";
import { attributeLabels, numberText } from "./attribute-text";
import {
  type DataPoint,
  type ExponentialHistogramPoint,
  type HistogramPoint,
  noRecordedValueFlag,
  type PointContext,
  type SummaryPoint,
} from "./metrics-model";

/** What one OTLP metrics request gives, from either encoding. */
export interface OtlpMetricsResult {
  series: LabelledPoints[];
  /**
   * Why data points were rejected, and notes on what gave no data (a metric without data), in
   * request order; at most `maxRefusedParts` of them.
   */
  refused: RefusedPart[];
  /** Every data point rejected (partial_success.rejected_data_points). */
  rejectedDataPoints: number;
  /** Data points flagged as having no recorded value: valid, but with nothing to store. */
  skippedDataPoints: number;
  /** The points in `series`. */
  points: number;
  /** The request holds more than `maxPoints` points: reading stopped there, and the request is refused as a whole. */
  tooMany: boolean;
}

/** The refusals a result details: enough for the client's error message, and bounded however bad the request. */
export const maxRefusedParts = 100;

/** A point the mapping can store. */
type StorablePoint = Exclude<DataPoint, { kind: "malformed" }>;

/**
 * Turns data points into series (API.md, "Intake from agents"): a gauge's or a sum's point is one
 * point of its metric; a histogram's is `<name>.count`, `<name>.sum`, `<name>.min`, `<name>.max`
 * (the last three when sent) and, for its buckets, `<name>.bucket` labelled `le` with cumulative
 * counts; an exponential histogram's gives count, sum, min and max only; a summary's is
 * `<name>.count`, `<name>.sum` and `<name>` labelled `quantile`. The labels are the point's
 * attributes; the resource attributes may serve as the primary label.
 */
export class MetricsMapping {
  private readonly series: LabelledPoints[] = [];
  private readonly refused: RefusedPart[] = [];
  private rejected = 0;
  private skipped = 0;
  private points = 0;
  private tooMany = false;
  /** The running index of data points in the request, the origin of what each gives. */
  private origin = 0;

  constructor(
    private readonly arrivalMs: number,
    private readonly maxPoints: number,
  ) {}

  /** Whether the request has proved too large: readers stop reading it. */
  get full(): boolean {
    return this.tooMany;
  }

  add(context: PointContext, point: DataPoint): void {
    const origin = this.origin++;
    if (point.kind === "malformed") {
      this.reject(context, origin, point.reason);
      return;
    }
    if ((point.flags & noRecordedValueFlag) !== 0) {
      this.skipped++;
      return;
    }
    const problem = problemOf(context.metric, point);
    if (problem !== undefined) {
      this.reject(context, origin, problem);
      return;
    }
    // Counted before the series are built: one histogram point may hold any number of buckets.
    const count = pointCount(point);
    if (this.points + count > this.maxPoints) {
      this.tooMany = true;
      return;
    }
    this.points += count;
    this.addSeries(context, origin, point, point.time ?? this.arrivalMs);
  }

  /** The point's series, each added as it is made. */
  private addSeries(context: PointContext, origin: number, point: StorablePoint, timestamp: number): void {
    const { metric, resource } = context;
    const labels = attributeLabels(point.attributes);
    switch (point.kind) {
      case "number":
        this.push(labels, resource, origin, [pointAt(metric, point.value!, timestamp)]);
        return;
      case "histogram": {
        this.push(labels, resource, origin, statistics(metric, point, timestamp));
        // OTLP counts each bucket on its own; `le` buckets count everything up to their bound, the last one everything.
        let cumulative = 0;
        for (const [index, count] of point.bucketCounts.entries()) {
          cumulative += count;
          const bound = index < point.explicitBounds.length ? numberText(point.explicitBounds[index]!) : "+Inf";
          this.push(withLabel(labels, "le", bound), resource, origin, [
            pointAt(`${metric}.bucket`, cumulative, timestamp),
          ]);
        }
        return;
      }
      case "exponentialHistogram":
        this.push(labels, resource, origin, statistics(metric, point, timestamp));
        return;
      case "summary":
        this.push(labels, resource, origin, [
          pointAt(`${metric}.count`, point.count, timestamp),
          pointAt(`${metric}.sum`, point.sum, timestamp),
        ]);
        for (const { quantile, value } of point.quantiles) {
          this.push(withLabel(labels, "quantile", numberText(quantile)), resource, origin, [
            pointAt(metric, value, timestamp),
          ]);
        }
        return;
    }
  }

  private push(labels: readonly Label[], resource: readonly Label[], origin: number, points: SeriesPoint[]): void {
    this.series.push({ labels, primaryOnly: resource, origin, points });
  }

  /** A metric with none of gauge, sum, histogram, exponential_histogram or summary: no data point to reject, but worth saying. */
  metricWithoutData(metric: string): void {
    this.note(this.origin, `metric ${quoted(metric)}: has no data`);
  }

  result(): OtlpMetricsResult {
    return {
      series: this.series,
      refused: this.refused,
      rejectedDataPoints: this.rejected,
      skippedDataPoints: this.skipped,
      points: this.points,
      tooMany: this.tooMany,
    };
  }

  private reject(context: PointContext, origin: number, reason: string): void {
    this.rejected++;
    this.note(origin, `metric ${quoted(context.metric)}: data point ${context.index}: ${reason}`);
  }

  private note(origin: number, message: string): void {
    if (this.refused.length < maxRefusedParts) this.refused.push({ origin, message });
  }
}

/** The longest part of a metric name a message quotes: the name comes from the client, and may be any length. */
const maxQuotedLength = 200;

function quoted(metric: string): string {
  return JSON.stringify(metric.length > maxQuotedLength ? `${metric.slice(0, maxQuotedLength)}…` : metric);
}

/** Why a decoded point cannot be stored, if it cannot. */
function problemOf(metric: string, point: StorablePoint): string | undefined {
  // Without a name, the series would be named by their suffixes alone (`.count`).
  if (metric === "") return "the metric has no name";
  switch (point.kind) {
    case "number":
      return point.value === undefined ? "has no value (neither asDouble nor asInt)" : undefined;
    case "histogram":
      return histogramProblem(point);
    case "summary":
      return summaryProblem(point);
    case "exponentialHistogram":
      return undefined;
  }
}

function histogramProblem({ bucketCounts, explicitBounds }: HistogramPoint): string | undefined {
  if (bucketCounts.length === 0) {
    return explicitBounds.length === 0 ? undefined : "has explicit bounds but no bucket counts";
  }
  if (bucketCounts.length !== explicitBounds.length + 1) {
    return `has ${bucketCounts.length} bucket counts for ${explicitBounds.length} explicit bounds (must be one more)`;
  }
  // Equal or unordered bounds would give several buckets the same `le`; infinite ones, an `le` twice.
  for (const [index, bound] of explicitBounds.entries()) {
    if (!Number.isFinite(bound)) return `explicit bound ${index} is ${numberText(bound)}`;
    if (index > 0 && !(bound > explicitBounds[index - 1]!)) return "explicit bounds are not strictly increasing";
  }
  return undefined;
}

function summaryProblem({ quantiles }: SummaryPoint): string | undefined {
  const seen = new Set<number>();
  for (const { quantile } of quantiles) {
    if (!(quantile >= 0 && quantile <= 1)) return `quantile ${numberText(quantile)} is not between 0 and 1`;
    // Two values for one quantile would be two values for one series at one time.
    if (seen.has(quantile)) return `quantile ${numberText(quantile)} is given twice`;
    seen.add(quantile);
  }
  return undefined;
}

/** How many points `addSeries` gives for the point. */
function pointCount(point: StorablePoint): number {
  switch (point.kind) {
    case "number":
      return 1;
    case "histogram":
      return statisticsCount(point) + point.bucketCounts.length;
    case "exponentialHistogram":
      return statisticsCount(point);
    case "summary":
      return 2 + point.quantiles.length;
  }
}

function statisticsCount({ sum, min, max }: HistogramPoint | ExponentialHistogramPoint): number {
  return 1 + [sum, min, max].filter((value) => value !== undefined).length;
}

const pointAt = (metric: string, value: number, timestamp: number): SeriesPoint => ({ metric, value, timestamp });

/** A histogram's count, and its sum, min and max when sent. */
function statistics(
  metric: string,
  point: HistogramPoint | ExponentialHistogramPoint,
  timestamp: number,
): SeriesPoint[] {
  const points = [pointAt(`${metric}.count`, point.count, timestamp)];
  if (point.sum !== undefined) points.push(pointAt(`${metric}.sum`, point.sum, timestamp));
  if (point.min !== undefined) points.push(pointAt(`${metric}.min`, point.min, timestamp));
  if (point.max !== undefined) points.push(pointAt(`${metric}.max`, point.max, timestamp));
  return points;
}

/** The labels with `key` set to `value`: an attribute of that name gives way to the label the mapping adds. */
function withLabel(labels: readonly Label[], key: string, value: string): Label[] {
  return [...labels.filter(([name]) => name !== key), [key, value]];
}
