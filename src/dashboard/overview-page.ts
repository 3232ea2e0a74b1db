import { api } from "./api";
import { unlessGone } from "./api-client";
import type { Metric, ObserverReport, Rule, Usage } from "./api-types";
import { enabledBadge, observerHealth, observerStateBadge } from "./badges";
import { badgeCell, linkCell, nameCell } from "./cells";
import { h, setText } from "./dom";
import { data, formatCount, formatRate, observerTarget } from "./format";
import { pageHeader, section, statTile } from "./layout";
import type { Page } from "./page";
import { rateBars } from "./rate-bars";
import { metricHref } from "./router";
import { outputMetricOf } from "./rules";
import { table } from "./table";

interface MetricRow {
  metric: Metric;
  observers: ObserverReport[];
}

/** What one way in accepted, refused and skipped. */
interface IntakeRouteRow {
  route: keyof Usage["intake"];
  counts: Usage["intake"][keyof Usage["intake"]];
}

/** How each route is named to a person: by what sends to it. */
const intakeRouteNames: Record<IntakeRouteRow["route"], string> = {
  "/monitoringdata": "RDF/JSON",
  "/write": "InfluxDB 1.x line protocol",
  "/api/v2/write": "InfluxDB 2.x line protocol",
  "/api/v1/write": "Prometheus remote write",
  "/otlp/v1/metrics": "OpenTelemetry (OTLP)",
  "/streams": "Data collectors (the original's streams)",
};

interface ObserverRow {
  metric: string;
  observer: ObserverReport;
}

/** The intake's rate: the instance's accepted data between two refreshes, over the time between them. */
function intakeRate() {
  let previous: { usage: Usage; at: number } | undefined;
  return (usage: Usage): number | undefined => {
    const at = performance.now();
    const earlier = previous;
    previous = { usage, at };
    // Another instance, or a restart, counts from zero: no rate from two different counts.
    if (!earlier || earlier.usage.since !== usage.since || at <= earlier.at) return undefined;
    return Math.max(0, usage.dataAccepted - earlier.usage.dataAccepted) / ((at - earlier.at) / 1000);
  };
}

async function metricRows(): Promise<MetricRow[]> {
  const names = await api.metricNames();
  const rows = await Promise.all(
    names.map(async (name): Promise<MetricRow | undefined> => {
      const [metric, observers] = await Promise.all([unlessGone(api.metric(name)), unlessGone(api.observers(name))]);
      if (!metric || !observers) return undefined;
      const reports = await Promise.all(observers.map((observer) => unlessGone(api.observer(name, observer.id))));
      return { metric, observers: reports.filter((report) => report !== undefined) };
    }),
  );
  return rows.filter((row) => row !== undefined);
}

const recentMinutes = (metric: Metric) => metric.acceptedPerMinute?.reduce((total, count) => total + count, 0);

/** "3 active · 1 paused": the counts that are not zero. */
function counted(counts: [number, string][]): string {
  return counts
    .filter(([count]) => count > 0)
    .map(([count, what]) => `${formatCount(count)} ${what}`)
    .join(" · ");
}

/** `#/`: every metric with its recent data rate, every observer's state and health, the rules, the intake's rate. */
export function overviewPage(): Page {
  const rateOf = intakeRate();
  const health = h("span", { class: "muted" });
  const intake = statTile("Intake");
  const metricsTile = statTile("Metrics");
  const observersTile = statTile("Observers");
  const rulesTile = statTile("Rules");

  const metrics = table<MetricRow>({
    label: "Metrics",
    keyOf: (row) => row.metric.id,
    empty: "No metrics yet: post monitoring data, or declare one with PUT /v1/metrics/<name>.",
    columns: [
      {
        label: "Metric",
        width: "27%",
        view: linkCell(
          (row) => row.metric.id,
          (row) => metricHref(row.metric.id),
          (row) => row.metric.description ?? "",
        ),
      },
      { label: "Unit", width: "9%", text: (row) => row.metric.unit ?? "—" },
      { label: "Observers", width: "11%", numeric: true, text: (row) => formatCount(row.metric.observers) },
      {
        label: "Data accepted",
        width: "14%",
        numeric: true,
        text: (row) => (row.metric.dataAccepted === undefined ? "—" : formatCount(row.metric.dataAccepted)),
      },
      {
        label: "Last 10 minutes",
        width: "24%",
        view: () => {
          const bars = rateBars();
          return { element: bars.element, update: (row: MetricRow) => bars.update(row.metric.acceptedPerMinute) };
        },
      },
      {
        label: "This minute",
        width: "15%",
        numeric: true,
        text: (row) => {
          const current = row.metric.acceptedPerMinute?.at(-1);
          return current === undefined ? "—" : formatCount(current);
        },
      },
    ],
  });

  const observers = table<ObserverRow>({
    label: "Observers",
    keyOf: (row) => row.observer.id,
    empty: "No observers yet: add one on a metric's page.",
    columns: [
      { label: "Observer", width: "20%", view: nameCell((row) => observerTarget(row.observer)) },
      {
        label: "Metric",
        width: "16%",
        view: linkCell(
          (row) => row.metric,
          (row) => metricHref(row.metric),
        ),
      },
      { label: "Format", width: "15%", text: (row) => `${row.observer.format} · ${row.observer.protocol}` },
      { label: "State", width: "10%", view: badgeCell((row) => observerStateBadge(row.observer.state)) },
      { label: "Health", width: "11%", view: badgeCell((row) => observerHealth(row.observer.status)) },
      { label: "Delivered", width: "9%", numeric: true, text: (row) => formatCount(row.observer.status.delivered) },
      { label: "Backlog", width: "8%", numeric: true, text: (row) => formatCount(row.observer.status.backlog) },
      { label: "Last error", width: "11%", text: (row) => row.observer.status.lastError ?? "—" },
    ],
  });

  const rules = table<Rule>({
    label: "Rules",
    keyOf: (rule) => rule.id,
    empty: h("span", {}, "No rules yet: ", h("a", { href: "#/rules" }, "upload a rule document"), "."),
    columns: [
      {
        label: "Rule",
        width: "26%",
        view: linkCell(
          (rule) => rule.id,
          () => "#/rules",
          (rule) => rule.label ?? "",
        ),
      },
      {
        label: "Reads",
        width: "20%",
        view: linkCell(
          (rule) => rule.collectedMetric.metricName,
          (rule) => metricHref(rule.collectedMetric.metricName),
        ),
      },
      {
        label: "Outputs",
        width: "22%",
        view: linkCell(
          (rule) => outputMetricOf(rule) ?? rule.actions[0]?.name ?? "—",
          (rule) => {
            const output = outputMetricOf(rule);
            return output === undefined ? undefined : metricHref(output);
          },
        ),
      },
      { label: "Window", width: "18%", text: (rule) => `every ${rule.timeStep} s over ${rule.timeWindow} s` },
      { label: "State", width: "14%", view: badgeCell((rule) => enabledBadge(rule.enabled)) },
    ],
  });

  const intakeRoutes = table<IntakeRouteRow>({
    label: "Intake by route",
    keyOf: (row) => row.route,
    empty: "No intake routes.",
    columns: [
      { label: "Sent as", width: "30%", text: (row) => intakeRouteNames[row.route] },
      { label: "Route", width: "22%", text: (row) => row.route },
      { label: "Accepted", width: "12%", numeric: true, text: (row) => formatCount(row.counts.dataAccepted) },
      { label: "Refused", width: "12%", numeric: true, text: (row) => formatCount(row.counts.refused) },
      {
        label: "Skipped",
        width: "24%",
        text: (row) =>
          counted([
            [row.counts.stringFieldsSkipped, "string fields"],
            [row.counts.staleMarkersSkipped, "stale markers"],
          ]) || "—",
      },
    ],
  });

  const element = h(
    "div",
    { class: "page" },
    pageHeader("Overview", health),
    h("div", { class: "tiles" }, intake.element, metricsTile.element, observersTile.element, rulesTile.element),
    section("Metrics", metrics.element),
    section("Intake by route, since the last start", intakeRoutes.element),
    section("Observers", observers.element),
    section("Rules", rules.element),
  );

  return {
    title: "Overview",
    element,
    async refresh() {
      const [status, usage, metricList, ruleList] = await Promise.all([
        api.health(),
        api.usage(),
        metricRows(),
        api.rules(),
      ]);
      setText(health, `Service ${status.status === "ok" ? "healthy" : status.status} · version ${status.version}`);

      const rate = rateOf(usage);
      intake.set(
        rate === undefined ? "Measuring…" : formatRate(rate),
        `${data(usage.dataAccepted)} accepted since the last start`,
      );
      intakeRoutes.update(
        (Object.keys(intakeRouteNames) as IntakeRouteRow["route"][]).map((route) => ({
          route,
          counts: usage.intake[route],
        })),
      );

      const active = metricList.filter((row) => (recentMinutes(row.metric) ?? 0) > 0).length;
      metricsTile.set(formatCount(metricList.length), `${formatCount(active)} with data in the last 10 minutes`);

      const observerRows = metricList.flatMap((row) =>
        row.observers.map((observer) => ({ metric: row.metric.id, observer })),
      );
      const inState = (state: string) => observerRows.filter((row) => row.observer.state === state).length;
      const failing = observerRows.filter((row) => observerHealth(row.observer.status)[0] === "Failing").length;
      observersTile.set(
        formatCount(observerRows.length),
        counted([
          [inState("active"), "active"],
          [inState("paused"), "paused"],
          [inState("disabled"), "disabled"],
          [failing, "failing"],
        ]),
      );

      const enabled = ruleList.monitoringRules.filter((rule) => rule.enabled).length;
      rulesTile.set(
        formatCount(ruleList.monitoringRules.length),
        counted([
          [enabled, "enabled"],
          [ruleList.monitoringRules.length - enabled, "disabled"],
        ]),
      );

      metrics.update(metricList);
      observers.update(observerRows);
      rules.update(ruleList.monitoringRules);
    },
  };
}
