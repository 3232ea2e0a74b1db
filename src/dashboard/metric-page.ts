import { isFarFromNow } from "../worker/vocabulary/far-from-now";
import { actionButton } from "./action-button";
import { api, metricObserversPath, observerPath } from "./api";
import { unlessGone } from "./api-client";
import type { RecentDatum } from "./api-types";
import { attemptsShown } from "./attempt-log";
import { lineChart, type Series } from "./chart";
import { disclosure } from "./disclosure";
import { h, setAttribute, setText } from "./dom";
import { data, formatCount, formatInstant } from "./format";
import { keyedList } from "./keyed-list";
import { breadcrumb, pageHeader, section } from "./layout";
import { type ObserverView, observerCard } from "./observer-card";
import { metricObserverForm } from "./observer-form";
import type { Page, PageContext } from "./page";
import { rateBars } from "./rate-bars";

/** The most data the API answers at once: the chart shows them all. */
const dataCharted = 1000;

/** A line per resource, in time order; values that are not numbers (NaN, infinities) are left out. */
function seriesOf(recent: readonly RecentDatum[]): Series[] {
  const byResource = new Map<string, Series>();
  for (const datum of recent) {
    if (typeof datum.value !== "number") continue;
    let series = byResource.get(datum.resourceId);
    if (!series) {
      series = { name: datum.resourceId, points: [] };
      byResource.set(datum.resourceId, series);
    }
    series.points.push({ time: datum.timestamp, value: datum.value });
  }
  const series = [...byResource.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const line of series) line.points.sort((a, b) => a.time - b.time);
  return series;
}

/**
 * A note on data stamped far from now, hidden while there are none: accepted as stamped, they sit
 * in 1970 or far ahead, where the chart alone would not tell why.
 */
function farFromNowNote(): { element: HTMLElement; update(recent: readonly RecentDatum[]): void } {
  const element = h("p", { class: "alert far-from-now", role: "note" });
  element.hidden = true;
  return {
    element,
    update(recent) {
      const now = Date.now();
      const far = recent.filter((datum) => isFarFromNow(datum.timestamp, now));
      element.hidden = far.length === 0;
      if (far.length === 0) return;
      const example = formatInstant(far[0]!.timestamp);
      setText(
        element,
        `${formatCount(far.length)} of these ${data(recent.length)} are stamped far from now (before 2000 or more ` +
          `than a day ahead, such as ${example}). Timestamps in seconds rather than milliseconds, or line ` +
          "protocol without the precision= of its timestamps, land there. They were accepted as stamped.",
      );
    },
  };
}

/**
 * What the page shows of a metric the service does not know: that it does not exist, and a button
 * that declares it (as the first datum naming it would).
 */
function unknownMetric(metric: string, context: PageContext): HTMLElement {
  const declare = actionButton("Declare the metric", "button button-primary", async () => {
    try {
      await api.declareMetric(metric);
      context.announce(`Metric ${metric} declared.`);
      await context.refresh();
    } catch (error) {
      context.report(error);
    }
  });
  setAttribute(declare, "aria-label", `Declare the metric ${metric}`);
  return section(
    "No such metric",
    h(
      "p",
      { class: "section-note" },
      `The service has no metric named ${JSON.stringify(metric)}. The first datum that names it declares it; `,
      "so does this button, which lets you add its observers before any data come.",
    ),
    h("div", { class: "form-actions" }, declare),
  );
}

/** `#/metrics/<name>`: the metric's recent values per resource, a form to add an observer, and its observers. */
export function metricPage(metric: string, context: PageContext): Page {
  const description = h("span", { class: "muted" });
  const accepted = h("span", { class: "muted" });
  const bars = rateBars();
  const chart = lineChart(`Recent values of ${metric}`);
  const farFromNow = farFromNowNote();
  const observerList = h("div", { class: "observer-list" });
  const noObservers = h("p", { class: "empty-note" }, "No observers yet: add one above.");
  const observerCount = h("span", { class: "count" });
  const cards = keyedList<ObserverView>(
    observerList,
    (view) => view.report.id,
    (view) => observerCard(observerPath(metricObserversPath(metric), view.report.id), context, view),
  );

  const addObserver = disclosure(["Add an observer"], metricObserverForm(metric, context), {
    className: "add-observer",
  });
  const observersSection = section(["Observers ", observerCount], addObserver.element, observerList, noObservers);
  const recentValues = section(
    "Recent values",
    h(
      "p",
      { class: "section-note" },
      `The metric's latest data (up to ${formatCount(dataCharted)}), one line per resource.`,
    ),
    farFromNow.element,
    chart.element,
  );
  const missing = unknownMetric(metric, context);
  missing.hidden = true;
  const meta = h(
    "p",
    { class: "page-meta" },
    description,
    h("span", { class: "meta-item" }, h("span", { class: "muted" }, "Last 10 minutes "), bars.element),
    // Last: its width changes with the count, which then moves nothing.
    h("span", { class: "meta-item" }, accepted),
  );
  /** Whether the page has shown the metric yet: the form starts open when the metric has no observer. */
  let shown = false;

  const element = h(
    "div",
    { class: "page" },
    breadcrumb(metric),
    pageHeader(metric, meta),
    missing,
    recentValues,
    observersSection,
  );

  /** Shows the metric's sections, or only the offer to declare it. */
  const showExisting = (exists: boolean) => {
    missing.hidden = exists;
    meta.hidden = !exists;
    recentValues.hidden = !exists;
    observersSection.hidden = !exists;
  };

  return {
    title: metric,
    element,
    async refresh() {
      const about = await unlessGone(api.metric(metric));
      showExisting(about !== undefined);
      if (!about) return;
      const [recent, observers] = await Promise.all([api.recentData(metric, dataCharted), api.observers(metric)]);
      const views = await Promise.all(
        observers.map(async (observer): Promise<ObserverView | undefined> => {
          const path = observerPath(metricObserversPath(metric), observer.id);
          const [report, attempts] = await Promise.all([
            unlessGone(api.observer(path)),
            unlessGone(api.attempts(path, attemptsShown)),
          ]);
          return report && attempts ? { report, attempts } : undefined;
        }),
      );
      const present = views.filter((view) => view !== undefined);
      setText(description, [about.description, about.unit && `in ${about.unit}`].filter(Boolean).join(" · "));
      description.hidden = description.textContent === "";
      setText(accepted, about.dataAccepted === undefined ? "" : `${data(about.dataAccepted)} accepted`);
      bars.update(about.acceptedPerMinute);
      chart.update(seriesOf(recent));
      farFromNow.update(recent);
      cards.update(present);
      setText(observerCount, `(${formatCount(present.length)})`);
      noObservers.hidden = present.length > 0;
      if (!shown) addObserver.open = present.length === 0;
      shown = true;
    },
    dispose() {
      chart.dispose();
    },
  };
}
