import { type Child, h, setText } from "./dom";
import { keyedList } from "./keyed-list";

/** A column: its heading, and its cells as text or as a view of their own (a link, a badge, bars). */
export interface Column<Item> {
  label: string;
  /** The column's share of the table's width, e.g. "12%": fixed, so that new values never move the columns. */
  width: string;
  numeric?: boolean;
  text?: (item: Item) => string;
  view?: () => { element: Node; update(item: Item): void };
}

export interface Table<Item> {
  readonly element: HTMLElement;
  update(items: readonly Item[]): void;
}

/**
 * A table of items, one row per key, updated in place: rows keep their elements and only changed
 * text is written. The first column heads its row. Wide tables scroll inside their frame, never
 * the page.
 */
export function table<Item>(options: {
  label: string;
  columns: readonly Column<Item>[];
  keyOf: (item: Item) => string;
  /** What an empty table says once its items came (before, it says it is loading); a function for a note that changes. */
  empty: Child | (() => Child);
  /** A frame that scrolls past a height, its empty note inside it: a long log never makes the page long. */
  bounded?: boolean;
}): Table<Item> {
  const { columns } = options;
  const body = h("tbody");
  const head = h(
    "thead",
    {},
    h(
      "tr",
      {},
      ...columns.map((column) =>
        h(
          "th",
          { scope: "col", class: column.numeric ? "numeric" : undefined, style: `width: ${column.width}` },
          column.label,
        ),
      ),
    ),
  );
  // Until its first items come, a table says so, never that there are none.
  const emptyNote = h("p", { class: "empty-note" }, "Loading…");
  const { empty } = options;
  const frame = h(
    "div",
    { class: "table-frame", role: "region", "aria-label": options.label, tabindex: 0 },
    h("table", {}, head, body),
    options.bounded ? emptyNote : undefined,
  );
  frame.hidden = !options.bounded;
  const element = h(
    "div",
    { class: options.bounded ? "table-block bounded" : "table-block" },
    frame,
    options.bounded ? undefined : emptyNote,
  );
  const rows = keyedList<Item>(body, options.keyOf, () => {
    const updates = columns.map((column, index) => {
      const cell = h(index === 0 ? "th" : "td", {
        ...(index === 0 ? { scope: "row" } : {}),
        class: column.numeric ? "numeric" : undefined,
      });
      if (column.view) {
        const view = column.view();
        cell.append(view.element);
        return { cell, update: view.update };
      }
      const text = column.text;
      return { cell, update: (item: Item) => setText(cell, text ? text(item) : "") };
    });
    return {
      element: h("tr", {}, ...updates.map(({ cell }) => cell)),
      update: (item) => {
        for (const { update } of updates) update(item);
      },
    };
  });
  return {
    element,
    update(items) {
      rows.update(items);
      frame.hidden = items.length === 0 && !options.bounded;
      emptyNote.hidden = items.length > 0;
      const note = h("span", {}, typeof empty === "function" ? empty() : empty);
      if (note.textContent !== emptyNote.textContent) emptyNote.replaceChildren(note);
    },
  };
}
