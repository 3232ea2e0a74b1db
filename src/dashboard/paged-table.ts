import { h, setText } from "./dom";
import { formatCount } from "./format";
import type { Table } from "./table";

/**
 * A table that shows its first `pageSize` items, and a page more each time its button is pressed:
 * a long list never makes the page long. Once every item shows, the same button folds the table
 * back to its first page, so that it never vanishes from under the keyboard's focus.
 */
export function pagedTable<Item>(inner: Table<Item>, options: { pageSize: number; noun: string }): Table<Item> {
  const { pageSize } = options;
  let shown = pageSize;
  let items: readonly Item[] = [];
  const note = h("p", { class: "muted" });
  const button = h("button", { type: "button", class: "button button-quiet" });
  const footer = h("div", { class: "table-more" }, note, button);

  const render = () => {
    inner.update(items.slice(0, shown));
    footer.hidden = items.length <= pageSize;
    const all = shown >= items.length;
    setText(
      note,
      `Showing ${formatCount(Math.min(shown, items.length))} of ${formatCount(items.length)} ${options.noun}.`,
    );
    setText(button, all ? "Show fewer" : `Show ${formatCount(Math.min(pageSize, items.length - shown))} more`);
  };
  button.addEventListener("click", () => {
    shown = shown >= items.length ? pageSize : shown + pageSize;
    render();
  });

  return {
    element: h("div", {}, inner.element, footer),
    update(next) {
      items = next;
      render();
    },
  };
}
