import { type Child, h, uniqueId } from "./dom";

/** A part of a page shown or hidden by a button of its own. */
export interface Disclosure {
  readonly element: HTMLElement;
  /** Whether the part shows; setting it shows or hides it as the button would. */
  open: boolean;
}

/**
 * `content` under a button that shows and hides it (the disclosure pattern: the button says
 * whether it is expanded, and which part it controls). Unlike <details>, the button is a button
 * to assistive technology, named by `label`. `onOpen` runs each time the part is shown.
 */
export function disclosure(
  label: readonly Child[],
  content: HTMLElement,
  options: { className: string; open?: boolean; onOpen?: () => void },
): Disclosure {
  content.id ||= uniqueId("disclosed");
  const toggle = h(
    "button",
    { type: "button", class: "disclosure-toggle", "aria-controls": content.id, "aria-expanded": "false" },
    h("span", { class: "disclosure-caret", "aria-hidden": "true" }),
    ...label,
  );
  const element = h("div", { class: `disclosure ${options.className}` }, toggle, content);
  let open = false;
  const show = (next: boolean) => {
    open = next;
    toggle.setAttribute("aria-expanded", String(next));
    content.hidden = !next;
    if (next) options.onOpen?.();
  };
  toggle.addEventListener("click", () => show(!open));
  show(options.open ?? false);
  return {
    element,
    get open() {
      return open;
    },
    set open(next: boolean) {
      if (next !== open) show(next);
    },
  };
}
