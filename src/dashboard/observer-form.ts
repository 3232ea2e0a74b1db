import { api } from "./api";
import { ApiProblem } from "./api-client";
import { h, setText, uniqueId } from "./dom";
import { type FormField, selectField, textField } from "./form-fields";
import { observerTarget } from "./format";
import type { PageContext } from "./page";
import { asProblem, clearProblem, showProblem } from "./problem-display";
import { onSubmitOnce } from "./submit-once";

const formats = ["RDF/JSON", "TOWER/JSON", "GRAPHITE", "INFLUXDB"] as const;
const protocols = ["HTTP", "TCP", "UDP"] as const;

/**
 * The form that registers an observer of `metric`. It checks nothing itself: the API judges the
 * registration, and each of its problems is shown at the field its path names (`/callbackUrl`,
 * `/observerPort`…), the rest above the form.
 */
export function observerForm(metric: string, context: PageContext): HTMLElement {
  const fields = {
    format: selectField("Format", { name: "format", values: formats }),
    protocol: selectField("Protocol", { name: "protocol", values: protocols }),
    callbackUrl: textField("Callback URL", {
      name: "callbackUrl",
      type: "url",
      placeholder: "https://receiver.example/hook",
      hint: "Where HTTP deliveries are posted.",
    }),
    observerHost: textField("Host", { name: "observerHost", placeholder: "127.0.0.1" }),
    observerPort: textField("Port", { name: "observerPort", inputmode: "numeric", placeholder: "2003" }),
    secret: textField("Secret (optional)", {
      name: "secret",
      hint: 'Signs each delivery (Standard Webhooks): 16 to 128 characters, or "generate".',
    }),
  } satisfies Record<string, FormField<HTMLInputElement | HTMLSelectElement>>;
  type FieldName = keyof typeof fields;
  const byPath = new Map(Object.entries(fields).map(([name, field]) => [`/${name}`, field]));

  const alert = h("div", { class: "alert", role: "alert", hidden: true });
  const status = h("p", { class: "form-status", role: "status" });
  const submit = h("button", { type: "submit", class: "button button-primary" }, "Add observer");
  const titleId = uniqueId("form");
  const form = h(
    "form",
    { class: "card form", novalidate: true, "aria-labelledby": titleId },
    h("h3", { id: titleId, class: "visually-hidden" }, `Add an observer of ${metric}`),
    alert,
    h("div", { class: "form-grid" }, ...Object.values(fields).map((field) => field.element)),
    h("div", { class: "form-actions" }, submit, status),
  );

  /** The fields of the chosen protocol: TCP and UDP deliveries have a host and port, and are never signed. */
  const showAddressFields = () => {
    const http = fields.protocol.control.value === "HTTP";
    fields.callbackUrl.element.hidden = !http;
    fields.secret.element.hidden = !http;
    fields.observerHost.element.hidden = http;
    fields.observerPort.element.hidden = http;
  };
  fields.protocol.control.addEventListener("change", showAddressFields);
  showAddressFields();

  /** The registration as typed: empty fields and fields of the other protocol are left out. */
  const registration = (): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(fields) as [
      FieldName,
      FormField<HTMLInputElement | HTMLSelectElement>,
    ][]) {
      const value = field.control.value.trim();
      if (value === "" || field.element.hidden) continue;
      // A port is a number in JSON; anything else goes as typed, for the API to name the problem.
      body[name] = name === "observerPort" && /^\d+$/.test(value) ? Number(value) : value;
    }
    return body;
  };

  onSubmitOnce(form, submit, async () => {
    clearProblem(alert);
    setText(status, "");
    for (const field of Object.values(fields)) field.clearError();
    try {
      const { created, observer } = await api.addObserver(metric, registration());
      const target = observerTarget(observer);
      const secret = observer.secret ? ` Its secret, shown this once: ${observer.secret}` : "";
      const outcome = created ? "added" : "was registered already; its state is unchanged";
      setText(status, `Observer ${target} ${outcome}.${secret}`);
      for (const name of ["callbackUrl", "observerHost", "observerPort", "secret"] as const) {
        fields[name].control.value = "";
      }
      await context.refresh();
    } catch (error) {
      const problem = asProblem(error);
      if (problem.refusesToken) {
        context.report(problem);
        return;
      }
      const unplaced = problem.errors.filter((entry) => {
        const field = byPath.get(entry.path);
        if (!field || field.element.hidden) return true;
        field.showError(entry.message);
        return false;
      });
      // The API's detail points at its list of errors; here they show at their fields instead.
      const detail =
        problem.errors.length === 0
          ? problem.detail
          : unplaced.length === 0
            ? "The observer was not added: correct the fields marked below."
            : "The observer was not added:";
      showProblem(alert, new ApiProblem(problem.status, detail, problem.errors), unplaced);
      const firstInvalid = Object.values(fields).find((field) => field.control.getAttribute("aria-invalid") === "true");
      firstInvalid?.control.focus();
    }
  });
  return form;
}
