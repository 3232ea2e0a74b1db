/** An element that shows one item and can be updated with a newer version of it. */
export interface ItemView<Item> {
  readonly element: Element;
  update(item: Item): void;
}

/**
 * The children of `container`, one per item, kept by key across updates: an item seen before
 * keeps its element (and focus, and scroll position) and is only updated; new ones are created,
 * gone ones removed. Elements move only when the order changed.
 */
export function keyedList<Item>(
  container: Element,
  keyOf: (item: Item) => string,
  create: (item: Item) => ItemView<Item>,
): { update(items: readonly Item[]): void } {
  let views = new Map<string, ItemView<Item>>();
  return {
    update(items) {
      const next = new Map<string, ItemView<Item>>();
      for (const item of items) {
        const key = keyOf(item);
        if (next.has(key)) continue;
        const view = views.get(key) ?? create(item);
        view.update(item);
        next.set(key, view);
      }
      for (const [key, view] of views) if (!next.has(key)) view.element.remove();
      let index = 0;
      for (const view of next.values()) {
        const current = container.children[index];
        if (current !== view.element) container.insertBefore(view.element, current ?? null);
        index += 1;
      }
      views = next;
    },
  };
}
