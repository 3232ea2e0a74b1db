import { type Badge, badge, type Tone } from "./badges";
import { h, setAttribute, setText } from "./dom";

/** Table cells other than text. */

/**
 * Where a name may wrap: after its separators (`.`, `_`, `-`, `/`, `:`, `,`, `=`) and between the
 * words of camel case, so that `FrontendCPUUtilization` wraps as Frontend·CPU·Utilization, not
 * mid-word, in a narrow column.
 */
const nameBreaks = /(?<=[._\-/:,=])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/** Writes `name` into `element` with a line-break opportunity (<wbr>) at each of its word boundaries. */
function setName(element: HTMLElement, name: string): void {
  if (element.dataset.name === name) return;
  element.dataset.name = name;
  const parts = name.split(nameBreaks);
  element.replaceChildren(...parts.flatMap((part, index) => (index === 0 ? [part] : [h("wbr"), part])));
}

/**
 * A link (plain text when `href` gives none), with a quieter line under it when `detail` gives one.
 * The text is a name: it wraps at its word boundaries.
 */
export function linkCell<Item>(
  text: (item: Item) => string,
  href: (item: Item) => string | undefined,
  detail: (item: Item) => string = () => "",
) {
  return () => {
    const link = h("a");
    const plain = h("span");
    const note = h("span", { class: "cell-detail" });
    const element = h("span", { class: "cell-two-lines" }, h("span", {}, link, plain), note);
    return {
      element,
      update(item: Item) {
        const target = href(item);
        link.hidden = target === undefined;
        plain.hidden = target !== undefined;
        setAttribute(link, "href", target ?? null);
        setName(target === undefined ? plain : link, text(item));
        setName(target === undefined ? link : plain, "");
        setText(note, detail(item));
        note.hidden = note.textContent === "";
      },
    };
  };
}

/** A name (a metric's, an observer's address) that wraps at its word boundaries only. */
export function nameCell<Item>(text: (item: Item) => string) {
  return () => {
    const element = h("span", {});
    return { element, update: (item: Item) => setName(element, text(item)) };
  };
}

export function badgeCell<Item>(state: (item: Item) => [string, Tone]) {
  return () => {
    const view: Badge = badge();
    return { element: view.element, update: (item: Item) => view.set(...state(item)) };
  };
}
