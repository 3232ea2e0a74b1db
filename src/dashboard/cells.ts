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

/** A badge, or a dash for an item of which it is not known. */
export function badgeCell<Item>(state: (item: Item) => [string, Tone] | undefined) {
  return () => {
    const view: Badge = badge();
    const unknown = h("span", { class: "muted" }, "—");
    return {
      element: h("span", {}, view.element, unknown),
      update(item: Item) {
        const shown = state(item);
        view.element.hidden = shown === undefined;
        unknown.hidden = shown !== undefined;
        if (shown) view.set(...shown);
      },
    };
  };
}
