import { type Badge, badge, type Tone } from "./badges";
import { h, setAttribute, setText } from "./dom";

/** Table cells other than text. */

/** A link (plain text when `href` gives none), with a quieter line under it when `detail` gives one. */
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
        setText(target === undefined ? plain : link, text(item));
        setText(target === undefined ? link : plain, "");
        setText(note, detail(item));
        note.hidden = note.textContent === "";
      },
    };
  };
}

export function badgeCell<Item>(state: (item: Item) => [string, Tone]) {
  return () => {
    const view: Badge = badge();
    return { element: view.element, update: (item: Item) => view.set(...state(item)) };
  };
}
