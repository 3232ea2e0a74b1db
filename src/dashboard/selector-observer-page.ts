import { api, observerPath, selectorObserversPath } from "./api";
import { unlessGone } from "./api-client";
import { attemptsShown } from "./attempt-log";
import { h } from "./dom";
import { followsView } from "./follows-view";
import { keyedList } from "./keyed-list";
import { breadcrumb, pageHeader, section } from "./layout";
import { type ObserverView, observerCard } from "./observer-card";
import type { Page, PageContext } from "./page";

/**
 * `#/observers/<id>`: an observer that follows selectors: what it follows (and which metrics that
 * is now), and its card as a metric's observer has it: state and health, counts, the latest
 * attempts, pause or resume, retry now, replay and delete.
 */
export function selectorObserverPage(observer: string, context: PageContext): Page {
  const path = observerPath(selectorObserversPath, observer);
  const followsSection = section("What it follows");
  let follows: ReturnType<typeof followsView> | undefined;
  const cardList = h("div", { class: "observer-list" });
  const cards = keyedList<ObserverView>(
    cardList,
    (view) => view.report.id,
    (view) => observerCard(path, context, view, { attemptsOpen: true }),
  );
  const deliverySection = section("Delivery", cardList);
  const missing = section(
    "No such observer",
    h(
      "p",
      { class: "section-note" },
      "The service has no observer of this id that follows selectors: it may have been deleted. ",
      h("a", { href: "#/" }, "Back to the overview"),
      ".",
    ),
  );
  missing.hidden = true;

  const element = h(
    "div",
    { class: "page" },
    breadcrumb("Observer by selector"),
    pageHeader("Observer by selector"),
    missing,
    followsSection,
    deliverySection,
  );

  return {
    title: "Observer by selector",
    element,
    async refresh() {
      const [report, attempts, metricNames] = await Promise.all([
        unlessGone(api.selectorObserver(path)),
        unlessGone(api.attempts(path, attemptsShown)),
        api.metricNames(),
      ]);
      const exists = report !== undefined && attempts !== undefined;
      missing.hidden = exists;
      followsSection.hidden = !exists;
      deliverySection.hidden = !exists;
      cards.update(exists ? [{ report, attempts }] : []);
      if (!exists) return;
      if (!follows) {
        // What an observer follows is fixed at its registration: drawn once, only the metrics change.
        follows = followsView(report);
        followsSection.append(follows.element);
      }
      follows.update(metricNames);
    },
  };
}
