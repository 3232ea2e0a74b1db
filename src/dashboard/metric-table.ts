import type { MetricSummary } from "./api-types";
import { linkCell } from "./cells";
import { formatCount, formatMoment } from "./format";
import { type PagedTable, pagedTable } from "./paged-table";
import { rateBars } from "./rate-bars";
import { metricHref } from "./router";
import { table } from "./table";

/** How many metrics a page of the overview's table shows. */
const metricsShown = 20;

/** The orders the overview sorts metrics by, as the choice names them. */
export const metricOrders = {
  name: "Name",
  rate: "Rate, highest first",
  failing: "Failing observers, most first",
  backlog: "Backlog, largest first",
} as const;

export type MetricOrder = keyof typeof metricOrders;

const byName = (left: MetricSummary, right: MetricSummary) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);

const descending: Record<Exclude<MetricOrder, "name">, (metric: MetricSummary) => number> = {
  rate: (metric) => metric.dataPerSecond,
  failing: (metric) => metric.failingObservers,
  backlog: (metric) => metric.backlog,
};

/** The metrics in `order`; ties, and the order by name, by name in code point order. */
export function sortedMetrics(metrics: readonly MetricSummary[], order: MetricOrder): MetricSummary[] {
  if (order === "name") return [...metrics].sort(byName);
  const key = descending[order];
  return [...metrics].sort((left, right) => key(right) - key(left) || byName(left, right));
}

/** A rate in data per second to a tenth; a trickle above nothing as "<0.1/s", never as none. */
function perSecond(rate: number): string {
  if (rate > 0 && rate < 0.05) return "<0.1/s";
  return `${formatCount(Math.round(rate * 10) / 10)}/s`;
}

/** A datum's timestamp as a moment; one beyond the range of dates as its number. */
function moment(epochMs: number | null): string {
  if (epochMs === null) return "—";
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? `${epochMs} ms` : formatMoment(date.toISOString());
}

/** "2 failing", else "1 backlogged": the most urgent of the metric's observers that need a look, in one short line. */
function observersDetail(metric: MetricSummary): string {
  if (metric.failingObservers > 0) return `${formatCount(metric.failingObservers)} failing`;
  if (metric.backloggedObservers > 0) return `${formatCount(metric.backloggedObservers)} backlogged`;
  return "";
}

/** The overview's metrics, a page at a time: each with its observers, data, rate, last minutes and latest datum. */
export function metricTable(empty: () => string): PagedTable<MetricSummary> {
  const rows = table<MetricSummary>({
    label: "Metrics",
    keyOf: (metric) => metric.id,
    empty,
    columns: [
      {
        label: "Metric",
        width: "26%",
        view: linkCell(
          (metric) => metric.id,
          (metric) => metricHref(metric.id),
          (metric) => [metric.description, metric.unit].filter(Boolean).join(" · "),
        ),
      },
      {
        label: "Observers",
        width: "14%",
        view: linkCell(
          (metric) => formatCount(metric.observers),
          () => undefined,
          observersDetail,
        ),
      },
      { label: "Data accepted", width: "13%", numeric: true, text: (metric) => formatCount(metric.dataAccepted) },
      { label: "Rate", width: "10%", numeric: true, text: (metric) => perSecond(metric.dataPerSecond) },
      {
        label: "Last 10 minutes",
        width: "22%",
        view: () => {
          const bars = rateBars();
          return { element: bars.element, update: (metric: MetricSummary) => bars.update(metric.acceptedPerMinute) };
        },
      },
      { label: "Latest datum", width: "15%", text: (metric) => moment(metric.latestDatumAt) },
    ],
  });
  return pagedTable(rows, { pageSize: metricsShown, noun: "metrics" });
}
