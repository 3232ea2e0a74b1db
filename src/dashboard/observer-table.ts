import type { ListedObserver } from "./api-types";
import { observerHealth, observerStateBadge, type Tone } from "./badges";
import { badgeCell, linkCell } from "./cells";
import { metrics, selectionInWords } from "./follows-in-words";
import { formatCount, observerTarget } from "./format";
import { type PagedTable, pagedTable } from "./paged-table";
import { metricHref, selectorObserverHref } from "./router";
import { table } from "./table";

/** How many observers a page of the overview's list shows. */
const observersShown = 15;

/** A selector observer as the list answers it: with its status and how many metrics it follows. */
type ListedSelectorObserver = Exclude<ListedObserver, { metric: string }>;

const isSelectorObserver = (observer: ListedObserver): observer is ListedSelectorObserver => !("metric" in observer);

/** The health badge. */
export function healthOf(observer: ListedObserver): [string, Tone] {
  return observerHealth(observer.status);
}

/** Where the observer's card is: its own page, or its metric's. */
function pageOf(observer: ListedObserver): string {
  return isSelectorObserver(observer) ? selectorObserverHref(observer.id) : metricHref(observer.metric);
}

/** What the observer follows, in a line: its first selector or its selection through the model; its metric. */
function followed(observer: ListedObserver): string {
  if (!isSelectorObserver(observer)) return observer.metric;
  const [first] = observer.match ?? [];
  return first ?? (observer.resources ? `Resources: ${selectionInWords(observer.resources)}` : "");
}

/** The rest of what a selector observer follows, and how many metrics that is now. */
function followedDetail(observer: ListedObserver): string {
  if (!isSelectorObserver(observer)) return "its metric";
  const more = (observer.match?.length ?? 0) - 1;
  return [
    more > 0 ? `and ${formatCount(more)} more ${more === 1 ? "selector" : "selectors"}` : "",
    observer.match && observer.resources ? `about ${selectionInWords(observer.resources)}` : "",
    `follows ${metrics(observer.follows)} now`,
  ]
    .filter(Boolean)
    .join(" · ");
}

const urgencyOfTone: Partial<Record<Tone, number>> = { danger: 0, warn: 1 };

/** Failing and disabled observers first, then those with a backlog or dead data, then the rest. */
function urgency(observer: ListedObserver): number {
  const tones = [observerStateBadge(observer.state)[1], healthOf(observer)[1]];
  return Math.min(...tones.map((tone) => (tone === undefined ? 2 : (urgencyOfTone[tone] ?? 2))));
}

/** The observers in the order the overview lists them: most urgent first, else as the service lists them. */
export function byUrgency(observers: readonly ListedObserver[]): ListedObserver[] {
  return observers
    .map((observer, index) => ({ observer, index, urgency: urgency(observer) }))
    .sort((a, b) => a.urgency - b.urgency || a.index - b.index)
    .map(({ observer }) => observer);
}

const count = (observer: ListedObserver, read: (status: ListedObserver["status"]) => number) => {
  return formatCount(read(observer.status));
};

/**
 * Every observer of the service, as one list answers them: where each delivers, what it follows
 * (its selectors and how many metrics they follow now, or its metric), its state and, for a
 * selector observer, its health and counts. A page of them at a time.
 */
export function observerTable(empty: () => string): PagedTable<ListedObserver> {
  const rows = table<ListedObserver>({
    label: "Observers",
    keyOf: (observer) => observer.id,
    empty,
    columns: [
      {
        label: "Observer",
        width: "20%",
        view: linkCell(
          (observer) => observerTarget(observer),
          pageOf,
          (observer) => `${observer.format} · ${observer.protocol}`,
        ),
      },
      { label: "Follows", width: "22%", view: linkCell(followed, () => undefined, followedDetail) },
      { label: "State", width: "9%", view: badgeCell((observer) => observerStateBadge(observer.state)) },
      { label: "Health", width: "10%", view: badgeCell(healthOf) },
      { label: "Delivered", width: "9%", numeric: true, text: (observer) => count(observer, (s) => s.delivered) },
      { label: "Backlog", width: "8%", numeric: true, text: (observer) => count(observer, (s) => s.backlog) },
      { label: "Failed", width: "7%", numeric: true, text: (observer) => count(observer, (s) => s.failed) },
      { label: "Last error", width: "15%", text: (observer) => observer.status.lastError ?? "—" },
    ],
  });
  return pagedTable(rows, { pageSize: observersShown, noun: "observers, failing and backlogged first" });
}
