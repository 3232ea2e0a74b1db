import { h } from "./dom";

/**
 * A button that runs `action` once at a time. While busy it says so (aria-disabled) but stays
 * enabled: a disabled button would lose the keyboard focus.
 */
export function actionButton(label: string, className: string, action: () => Promise<void>): HTMLButtonElement {
  const button = h("button", { type: "button", class: className }, label);
  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    try {
      await action();
    } finally {
      button.removeAttribute("aria-disabled");
    }
  });
  return button;
}
