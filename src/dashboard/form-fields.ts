import { h, setAttribute, setText, uniqueId } from "./dom";

/**
 * A labelled form control with a place for its error message: the message is tied to the
 * control (aria-describedby) and marks it invalid (aria-invalid) while it shows.
 */
export type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface FormField<Control extends FormControl> {
  readonly element: HTMLElement;
  readonly control: Control;
  showError(message: string): void;
  clearError(): void;
}

function field<Control extends FormControl>(label: string, control: Control, hint?: string): FormField<Control> {
  control.id = uniqueId("field");
  const hintElement = hint ? h("p", { class: "field-hint", id: `${control.id}-hint` }, hint) : undefined;
  const error = h("p", { class: "field-error", id: `${control.id}-error`, hidden: true });
  const describedBy = [hintElement?.id, error.id].filter(Boolean).join(" ");
  control.setAttribute("aria-describedby", describedBy);
  const element = h("div", { class: "field" }, h("label", { for: control.id }, label), control, hintElement, error);
  return {
    element,
    control,
    showError(message) {
      setText(error, message);
      error.hidden = false;
      setAttribute(control, "aria-invalid", "true");
    },
    clearError() {
      setText(error, "");
      error.hidden = true;
      setAttribute(control, "aria-invalid", null);
    },
  };
}

export function textField(
  label: string,
  options: { name: string; type?: string; hint?: string; placeholder?: string; inputmode?: string },
): FormField<HTMLInputElement> {
  const input = h("input", {
    name: options.name,
    type: options.type ?? "text",
    placeholder: options.placeholder,
    inputmode: options.inputmode,
    autocomplete: "off",
    spellcheck: "false",
  });
  return field(label, input, options.hint);
}

export function selectField(
  label: string,
  options: { name: string; values: readonly string[]; hint?: string },
): FormField<HTMLSelectElement> {
  const select = h("select", { name: options.name }, ...options.values.map((value) => h("option", { value }, value)));
  return field(label, select, options.hint);
}

export function textAreaField(
  label: string,
  options: { name: string; rows: number; hint?: string; placeholder?: string },
): FormField<HTMLTextAreaElement> {
  const textarea = h("textarea", {
    name: options.name,
    rows: options.rows,
    placeholder: options.placeholder,
    autocomplete: "off",
    spellcheck: "false",
  });
  return field(label, textarea, options.hint);
}
