import { type Child, h, setText, uniqueId } from "./dom";

/** The parts every page is made of. */

/** The page's heading (focused when the page is opened by navigation) and a line under it. */
export function pageHeader(title: string, ...aside: Child[]): HTMLElement {
  return h("header", { class: "page-header" }, h("h1", { tabindex: -1 }, title), ...aside);
}

/** A titled section of a page, named by its heading (a title, or a title and more, e.g. a count). */
/** The trail from the overview to a page of its own: Overview / `current`. */
export function breadcrumb(current: string): HTMLElement {
  return h(
    "nav",
    { class: "breadcrumb", "aria-label": "Breadcrumb" },
    h("a", { href: "#/" }, "Overview"),
    h("span", { "aria-hidden": "true" }, " / "),
    h("span", { "aria-current": "page" }, current),
  );
}

export function section(title: string | readonly Child[], ...children: Child[]): HTMLElement {
  const id = uniqueId("section");
  const heading = h("h2", { id }, ...(typeof title === "string" ? [title] : title));
  return h("section", { class: "section", "aria-labelledby": id }, heading, ...children);
}

/** A figure with a label, a large value and a line of detail; its value is read out when it changes. */
export function statTile(label: string): { element: HTMLElement; set(value: string, detail: string): void } {
  const value = h("p", { class: "tile-value" }, "…");
  const detail = h("p", { class: "tile-detail" }, "\u00a0");
  const element = h(
    "div",
    { class: "tile" },
    h("p", { class: "tile-label" }, label),
    h("div", { "aria-live": "polite" }, value, detail),
  );
  return {
    element,
    set(nextValue, nextDetail) {
      setText(value, nextValue);
      setText(detail, nextDetail || "\u00a0");
    },
  };
}

/** A labelled figure of a statistics list (`dl`): its term, and the value to update. */
export function statistic(label: string): { element: HTMLElement; value: HTMLElement } {
  const value = h("dd", {});
  return { element: h("div", { class: "stat" }, h("dt", {}, label), value), value };
}
