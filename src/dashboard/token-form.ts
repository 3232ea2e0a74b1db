import type { ApiProblem } from "./api-client";
import { h, uniqueId } from "./dom";
import { asProblem, showProblem } from "./problem-display";
import { onSubmitOnce } from "./submit-once";

/**
 * Asks for the admin token: a labelled password field. `submitToken` tries it and rejects with the
 * API's problem when the service refuses it, which the form then shows; `problem` is why the
 * form is asked for again (a token refused later), if it is.
 */
export function tokenForm(problem: ApiProblem | undefined, submitToken: (token: string) => Promise<void>): HTMLElement {
  const titleId = uniqueId("sign-in");
  const alert = h("div", { class: "alert", role: "alert", hidden: true });
  const input = h("input", {
    id: uniqueId("token"),
    type: "password",
    name: "token",
    autocomplete: "off",
    spellcheck: "false",
  });
  const submit = h("button", { type: "submit", class: "button button-primary" }, "Continue");
  const form = h(
    "form",
    { class: "card form sign-in", "aria-labelledby": titleId, novalidate: true },
    h("h1", { id: titleId, tabindex: -1 }, "Sign in"),
    h(
      "p",
      { class: "muted" },
      "This service needs its admin token to show its data. The dashboard keeps it in this browser tab only, until the tab is closed.",
    ),
    alert,
    h("div", { class: "field" }, h("label", { for: input.id }, "Admin token"), input),
    h("div", { class: "form-actions" }, submit),
  );
  if (problem) showProblem(alert, problem);

  onSubmitOnce(form, submit, async () => {
    try {
      await submitToken(input.value.trim());
    } catch (error) {
      showProblem(alert, asProblem(error));
      input.select();
    }
  });
  return h("div", { class: "page sign-in-page" }, form);
}
