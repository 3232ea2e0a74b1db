/**
 * Runs `handle` on each submission of `form`, one at a time. Meanwhile `submit` says it is busy
 * (aria-disabled) but stays enabled, as an action button does: a disabled button would lose the focus.
 */
export function onSubmitOnce(form: HTMLFormElement, submit: HTMLElement, handle: () => Promise<void>): void {
  let busy = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    submit.setAttribute("aria-disabled", "true");
    try {
      await handle();
    } finally {
      busy = false;
      submit.removeAttribute("aria-disabled");
    }
  });
}
