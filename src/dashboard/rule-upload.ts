import { api } from "./api";
import { h, setText, uniqueId } from "./dom";
import type { PageContext } from "./page";
import { asProblem, clearProblem, showProblem } from "./problem-display";
import { onSubmitOnce } from "./submit-once";

/**
 * The form that installs a rule document from a file: XML (the original's) or JSON, sent as it
 * is. The API installs every rule of it or none, and its problems are shown as it words them.
 */
export function ruleUpload(context: PageContext): HTMLElement {
  const alert = h("div", { class: "alert", role: "alert", hidden: true });
  const status = h("p", { class: "form-status", role: "status" });
  const inputId = uniqueId("rules-file");
  const hintId = `${inputId}-hint`;
  const file = h("input", {
    id: inputId,
    type: "file",
    name: "document",
    accept: ".xml,.json,application/xml,text/xml,application/json",
    "aria-describedby": hintId,
  });
  const submit = h("button", { type: "submit", class: "button button-primary" }, "Install rules");
  const form = h(
    "form",
    { class: "card form upload-form", novalidate: true, "aria-label": "Upload a rule document" },
    alert,
    h(
      "div",
      { class: "field" },
      h("label", { for: inputId }, "Rule document (XML or JSON)"),
      file,
      h("p", { class: "field-hint", id: hintId }, "Every rule of the document is installed, or none of them."),
    ),
    h("div", { class: "form-actions" }, submit, status),
  );

  onSubmitOnce(form, submit, async () => {
    clearProblem(alert);
    setText(status, "");
    const chosen = file.files?.[0];
    if (!chosen) {
      setText(status, "Choose a rule document first.");
      file.focus();
      return;
    }
    try {
      await api.installRules(await chosen.text());
      setText(status, `Installed the rules of ${chosen.name}.`);
      form.reset();
      await context.refresh();
    } catch (error) {
      const problem = asProblem(error);
      if (problem.refusesToken) context.report(problem);
      else showProblem(alert, problem);
    }
  });
  return form;
}
