import { h, setText } from "./dom";
import { formatCount } from "./format";
import type { Table } from "./table";

/** A table that shows a page of its items at a time, and can be sent back to its first page. */
export interface PagedTable<Item> extends Table<Item> {
  firstPage(): void;
}

/**
 * A table that shows `pageSize` items at a time, with how many there are and, when they take more
 * than a page, buttons to the previous and next page: a list of any length keeps the page's
 * height. An update keeps the page shown while it exists.
 */
export function pagedTable<Item>(inner: Table<Item>, options: { pageSize: number; noun: string }): PagedTable<Item> {
  const { pageSize } = options;
  let page = 0;
  let items: readonly Item[] = [];
  const note = h("p", { class: "muted", "aria-live": "polite" });
  const previous = h("button", { type: "button", class: "button button-quiet" }, "Previous page");
  const next = h("button", { type: "button", class: "button button-quiet" }, "Next page");
  const buttons = h("span", { class: "table-pages" }, previous, next);
  const footer = h("div", { class: "table-more" }, note, buttons);

  const render = () => {
    const pages = Math.max(1, Math.ceil(items.length / pageSize));
    page = Math.min(page, pages - 1);
    const first = page * pageSize;
    const shown = items.slice(first, first + pageSize);
    inner.update(shown);
    footer.hidden = items.length === 0;
    buttons.hidden = items.length <= pageSize;
    previous.disabled = page === 0;
    next.disabled = page === pages - 1;
    setText(
      note,
      `Showing ${formatCount(first + 1)}–${formatCount(first + shown.length)} of ${formatCount(items.length)} ${options.noun}.`,
    );
  };
  previous.addEventListener("click", () => {
    page -= 1;
    render();
  });
  next.addEventListener("click", () => {
    page += 1;
    render();
  });

  return {
    element: h("div", {}, inner.element, footer),
    update(nextItems) {
      items = nextItems;
      render();
    },
    firstPage() {
      page = 0;
    },
  };
}
