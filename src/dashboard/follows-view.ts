import { parseSeriesSelector } from "../worker/selectors/selector-syntax";
import { metricCouldMatch } from "../worker/selectors/series-matcher";
import type { SelectorObserverReport } from "./api-types";
import { h, setText } from "./dom";
import { labelChangesInWords, metrics, selectionInWords } from "./follows-in-words";
import { formatCount } from "./format";
import { statistic } from "./layout";
import { metricHref } from "./router";

/** How many followed metrics the page names before it counts the rest. */
const metricsNamed = 30;

/**
 * The metrics whose data the observer's selectors can match by name, as the service counts them
 * (an observer that selects through the model alone may get data of every metric).
 */
function followedMetrics(match: readonly string[] | undefined, names: readonly string[]): string[] {
  if (match === undefined) return [...names];
  const selectors = match.map(parseSeriesSelector);
  return names.filter((name) => metricCouldMatch(selectors, name));
}

/**
 * What a selector observer follows: its selectors, its selection through the model, the labels it
 * changes (each fixed at registration) and the metrics that it follows now, with a link to each.
 */
export function followsView(observer: SelectorObserverReport): {
  element: HTMLElement;
  update(metricNames: readonly string[]): void;
} {
  const parts: HTMLElement[] = [];
  if (observer.match) {
    const selectors = statistic(observer.match.length === 1 ? "Selector" : "Selectors");
    selectors.value.append(
      h("ul", { class: "selector-list" }, ...observer.match.map((selector) => h("li", {}, h("code", {}, selector)))),
    );
    parts.push(selectors.element);
  }
  if (observer.resources) {
    const resources = statistic("Resources");
    setText(resources.value, selectionInWords(observer.resources));
    parts.push(resources.element);
  }
  if (observer.labels) {
    const labels = statistic("Labels");
    setText(labels.value, labelChangesInWords(observer.labels) || "unchanged");
    parts.push(labels.element);
  }
  const now = statistic("Follows now");
  parts.push(now.element);
  let shown: string | undefined;

  return {
    element: h("dl", { class: "follows", "aria-live": "polite" }, ...parts),
    update(metricNames) {
      const followed = followedMetrics(observer.match, metricNames);
      const key = followed.join("\n");
      if (key === shown) return;
      shown = key;
      const named = followed.slice(0, metricsNamed);
      const rest = followed.length - named.length;
      now.value.replaceChildren(
        `${metrics(followed.length)}${followed.length === 0 ? "" : ": "}`,
        ...named.flatMap((name, index) => [index === 0 ? "" : ", ", h("a", { href: metricHref(name) }, name)]),
        rest > 0 ? ` and ${formatCount(rest)} more` : "",
      );
    },
  };
}
