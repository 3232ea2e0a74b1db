import { api } from "./api";
import { h, setText, uniqueId } from "./dom";
import type { PageContext } from "./page";
import { asProblem, clearProblem, showProblem } from "./problem-display";
import { onSubmitOnce } from "./submit-once";

/** The document to install, and what to call it: the chosen file's, or the pasted text. */
type Chosen = { text: string; name: string } | { problem: string };

/**
 * The form that installs a rule document, from a file or pasted: XML (the original's) or JSON,
 * sent as it is. The API installs every rule of it or none, and its problems are shown as it
 * words them.
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
  const pasteId = uniqueId("rules-text");
  const pasted = h("textarea", {
    id: pasteId,
    name: "text",
    rows: 8,
    spellcheck: "false",
    autocomplete: "off",
    placeholder: '<monitoringRules xmlns="http://www.modaclouds.eu/xsd/1.0/monitoring_rules_schema">…',
    "aria-describedby": hintId,
  });
  const submit = h("button", { type: "submit", class: "button button-primary" }, "Install rules");
  const form = h(
    "form",
    { class: "card form upload-form", novalidate: true, "aria-label": "Install a rule document" },
    alert,
    h("div", { class: "field" }, h("label", { for: inputId }, "Rule document file (XML or JSON)"), file),
    h("div", { class: "field" }, h("label", { for: pasteId }, "Or paste the document"), pasted),
    h("p", { class: "field-hint", id: hintId }, "Every rule of the document is installed, or none of them."),
    h("div", { class: "form-actions" }, submit, status),
  );

  const chosen = async (): Promise<Chosen> => {
    const picked = file.files?.[0];
    const text = pasted.value.trim();
    if (picked && text) return { problem: "Choose a file or paste a document, not both." };
    if (picked) return { text: await picked.text(), name: picked.name };
    if (text) return { text, name: "the pasted document" };
    return { problem: "Choose a rule document file, or paste one, first." };
  };

  onSubmitOnce(form, submit, async () => {
    clearProblem(alert);
    setText(status, "");
    const document = await chosen();
    if ("problem" in document) {
      setText(status, document.problem);
      (file.files?.length ? pasted : file).focus();
      return;
    }
    try {
      await api.installRules(document.text);
      setText(status, `Installed the rules of ${document.name}.`);
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
