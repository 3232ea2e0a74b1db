import { api } from "./api";
import { unlessGone } from "./api-client";
import type { Metric, Rule, Usage } from "./api-types";
import { enabledBadge } from "./badges";
import { badgeCell, linkCell } from "./cells";
import { disclosure } from "./disclosure";
import { h, setText } from "./dom";
import { data, formatCount, formatRate } from "./format";
import { pageHeader, section, statTile } from "./layout";
import { byUrgency, healthOf, observerTable } from "./observer-table";
import type { Page, PageContext } from "./page";
import { rateBars } from "./rate-bars";
import { metricHref } from "./router";
import { outputMetricOf } from "./rules";
import { selectorObserverForm } from "./selector-observer-form";
import { table } from "./table";

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

async function everyMetric(): Promise<Metric[]> {
  const names = await api.metricNames();
  const rows = await Promise.all(names.map((name) => unlessGone(api.metric(name))));
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

/**
 * `#/`: every metric with its recent data rate, every observer (the selector observers' health
 * too) and a form that forwards by selector, the rules, the intake's rate.
 */
export function overviewPage(context: PageContext): Page {
  const rateOf = intakeRate();
  const health = h("span", { class: "muted" });
  const intake = statTile("Intake");
  const metricsTile = statTile("Metrics");
  const observersTile = statTile("Observers");
  const rulesTile = statTile("Rules");

  const metrics = table<Metric>({
    label: "Metrics",
    keyOf: (metric) => metric.id,
    empty: "No metrics yet: post monitoring data, or declare one with PUT /v1/metrics/<name>.",
    columns: [
      {
        label: "Metric",
        width: "27%",
        view: linkCell(
          (metric) => metric.id,
          (metric) => metricHref(metric.id),
          (metric) => metric.description ?? "",
        ),
      },
      { label: "Unit", width: "9%", text: (metric) => metric.unit ?? "—" },
      { label: "Observers", width: "11%", numeric: true, text: (metric) => formatCount(metric.observers) },
      {
        label: "Data accepted",
        width: "14%",
        numeric: true,
        text: (metric) => (metric.dataAccepted === undefined ? "—" : formatCount(metric.dataAccepted)),
      },
      {
        label: "Last 10 minutes",
        width: "24%",
        view: () => {
          const bars = rateBars();
          return { element: bars.element, update: (metric: Metric) => bars.update(metric.acceptedPerMinute) };
        },
      },
      {
        label: "This minute",
        width: "15%",
        numeric: true,
        text: (metric) => {
          const current = metric.acceptedPerMinute?.at(-1);
          return current === undefined ? "—" : formatCount(current);
        },
      },
    ],
  });

  const observers = observerTable();
  const forwardBySelector = disclosure(["Forward by selector"], selectorObserverForm(context), {
    className: "add-observer",
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
    section(
      "Observers",
      h(
        "p",
        { class: "section-note" },
        "Observers that follow selectors receive the data they match, whatever their metric; a metric's observers, its data.",
      ),
      forwardBySelector.element,
      observers.element,
    ),
    section("Rules", rules.element),
  );

  return {
    title: "Overview",
    element,
    async refresh() {
      const [status, usage, metricList, observerList, ruleList] = await Promise.all([
        api.health(),
        api.usage(),
        everyMetric(),
        api.allObservers(),
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

      const active = metricList.filter((metric) => (recentMinutes(metric) ?? 0) > 0).length;
      metricsTile.set(formatCount(metricList.length), `${formatCount(active)} with data in the last 10 minutes`);

      const inState = (state: string) => observerList.filter((observer) => observer.state === state).length;
      const failing = observerList.filter((observer) => healthOf(observer)[0] === "Failing").length;
      observersTile.set(
        formatCount(observerList.length),
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
      observers.update(byUrgency(observerList));
      rules.update(ruleList.monitoringRules);
    },
  };
}
