import { api } from "./api";
import type { ListedObserver, MetricSummary, Rule, Summary } from "./api-types";
import { enabledBadge } from "./badges";
import { badgeCell, linkCell } from "./cells";
import { disclosure } from "./disclosure";
import { h, setText, uniqueId } from "./dom";
import { type FleetSearch, fleetSearch } from "./fleet-search";
import { selectionInWords } from "./follows-in-words";
import { data, formatCount, formatRate, observerTarget } from "./format";
import { groupBar } from "./group-bar";
import { pageHeader, section, statTile } from "./layout";
import { type MetricOrder, metricOrders, metricTable, sortedMetrics } from "./metric-table";
import { nameGroups, prefixOf } from "./name-groups";
import { byUrgency, healthOf, observerTable } from "./observer-table";
import type { Page, PageContext } from "./page";
import { metricHref } from "./router";
import { outputMetricOf } from "./rules";
import { searchBox } from "./search-box";
import { selectorObserverForm } from "./selector-observer-form";
import { table } from "./table";

type IntakeRoutes = Summary["intake"]["routes"];

/** What one way in accepted, refused and skipped. */
interface IntakeRouteRow {
  route: keyof IntakeRoutes;
  counts: IntakeRoutes[keyof IntakeRoutes];
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

/** "3 active · 1 paused": the counts that are not zero. */
function counted(counts: [number, string][]): string {
  return counts
    .filter(([count]) => count > 0)
    .map(([count, what]) => `${formatCount(count)} ${what}`)
    .join(" · ");
}

/** What an observer shows, for the search: its address, what it follows, its format, state and last error. */
function observerTexts(observer: ListedObserver): (string | undefined)[] {
  return [
    observerTarget(observer),
    "metric" in observer ? observer.metric : undefined,
    ...("match" in observer ? (observer.match ?? []) : []),
    "resources" in observer && observer.resources ? selectionInWords(observer.resources) : undefined,
    ...("labels" in observer && observer.labels
      ? [
          ...Object.entries(observer.labels.add ?? {}).map(([name, value]) => `${name}=${value}`),
          ...(observer.labels.drop ?? []),
        ]
      : []),
    observer.format,
    observer.protocol,
    observer.state,
    observer.status.lastError ?? undefined,
  ];
}

/** The choice of the metrics' order. */
function orderChoice(onChange: (order: MetricOrder) => void): HTMLElement {
  const id = uniqueId("order");
  const select = h(
    "select",
    { id, name: "order" },
    ...Object.entries(metricOrders).map(([order, label]) => h("option", { value: order }, label)),
  );
  select.addEventListener("change", () => onChange(select.value as MetricOrder));
  return h("div", { class: "field order-choice" }, h("label", { for: id }, "Sort by"), select);
}

/**
 * `#/`: the fleet at a glance, from one summary request per refresh whatever its size: the intake's
 * rate, every metric (searched, grouped by the first word of its name, sorted, a page at a time),
 * every observer (failing and backlogged first, a page at a time) and a form that forwards by
 * selector, what each way in accepted, the rules.
 */
export function overviewPage(context: PageContext): Page {
  const health = h("span", { class: "muted" });
  const intake = statTile("Intake");
  const metricsTile = statTile("Metrics");
  const observersTile = statTile("Observers");
  const rulesTile = statTile("Rules");

  let summary: Summary | undefined;
  let search: FleetSearch = fleetSearch("");
  let query = "";
  let group: string | undefined;
  let order: MetricOrder = "name";

  const metrics = metricTable(() =>
    summary?.metrics.length === 0
      ? "No metrics yet: post monitoring data, or declare one with PUT /v1/metrics/<name>."
      : "No metrics match the search.",
  );
  const observers = observerTable(() =>
    summary?.observers.length === 0
      ? "No observers yet: forward by selector above, or add one on a metric's page."
      : "No observers match the search.",
  );
  const groups = groupBar((prefix) => {
    group = prefix;
    metrics.firstPage();
    show();
  });
  const finder = searchBox((next) => {
    query = next;
    search = fleetSearch(next);
    finder.showProblem(search.problem);
    metrics.firstPage();
    observers.firstPage();
    show();
  });
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

  /** The metrics and observers the search, the group and the order keep, from the latest summary. */
  function show(): void {
    if (!summary) return;
    const searched = summary.metrics.filter((metric: MetricSummary) =>
      search.keepsMetric(metric.id, [metric.description, metric.unit]),
    );
    groups.update(nameGroups(searched.map((metric) => metric.id)), searched.length, group);
    const grouped = group === undefined ? searched : searched.filter((metric) => prefixOf(metric.id) === group);
    metrics.update(sortedMetrics(grouped, order));
    const shownObservers = query.trim()
      ? summary.observers.filter((observer) =>
          search.keepsObserver("metric" in observer ? observer.metric : undefined, observerTexts(observer)),
        )
      : summary.observers;
    observers.update(byUrgency(shownObservers));
  }

  const element = h(
    "div",
    { class: "page" },
    pageHeader("Overview", health),
    h("div", { class: "tiles" }, intake.element, metricsTile.element, observersTile.element, rulesTile.element),
    finder.element,
    section(
      "Metrics",
      h(
        "div",
        { class: "metric-controls" },
        groups.element,
        orderChoice((next) => {
          order = next;
          metrics.firstPage();
          show();
        }),
      ),
      metrics.element,
    ),
    section(
      "Observers",
      h(
        "p",
        { class: "section-note" },
        "Observers that follow selectors receive the data they match, whatever their metric; a metric's observers, its data. Failing and backlogged ones first.",
      ),
      forwardBySelector.element,
      observers.element,
    ),
    section("Intake by route, since the last start", intakeRoutes.element),
    section("Rules", rules.element),
  );

  return {
    title: "Overview",
    element,
    async refresh() {
      const [next, status, ruleList] = await Promise.all([api.summary(), api.health(), api.rules()]);
      summary = next;
      setText(health, `Service ${status.status === "ok" ? "healthy" : status.status} · version ${status.version}`);

      intake.set(formatRate(next.intake.dataPerSecond), `${data(next.intake.dataAccepted)} consumed in all`);
      intakeRoutes.update(
        (Object.keys(intakeRouteNames) as IntakeRouteRow["route"][]).map((route) => ({
          route,
          counts: next.intake.routes[route],
        })),
      );

      const active = next.metrics.filter((metric) => metric.acceptedPerMinute.some((count) => count > 0)).length;
      metricsTile.set(formatCount(next.metrics.length), `${formatCount(active)} with data in the last 10 minutes`);

      const inState = (state: string) => next.observers.filter((observer) => observer.state === state).length;
      const failing = next.observers.filter((observer) => healthOf(observer)[0] === "Failing").length;
      observersTile.set(
        formatCount(next.observers.length),
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

      show();
      rules.update(ruleList.monitoringRules);
    },
  };
}
