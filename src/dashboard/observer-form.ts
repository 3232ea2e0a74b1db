import { observerFormats, observerProtocols } from "../worker/metrics/observer-kinds";
import { api, metricObserversPath } from "./api";
import { ApiProblem } from "./api-client";
import type { FieldProblem, RegisteredObserver } from "./api-types";
import { h, setText, uniqueId } from "./dom";
import { type FormControl, type FormField, selectField, textField } from "./form-fields";
import { observerTarget } from "./format";
import type { PageContext } from "./page";
import { asProblem, clearProblem, showProblem } from "./problem-display";
import { onSubmitOnce } from "./submit-once";

/** A field of a registration: what it adds to the body, and which of the API's problems show at it. */
export interface RegistrationField {
  /** The body's field it fills, e.g. `callbackUrl`. */
  readonly name: string;
  readonly field: FormField<FormControl>;
  /** Its part of the body; undefined leaves it out. */
  value(): unknown;
  /** Whether a problem at `path` (a JSON pointer into the body) is its to show. */
  takes(path: string): boolean;
  showProblem(problem: FieldProblem): void;
}

/** What is needed to register an observer with the form. */
export interface ObserverFormOptions {
  /** The form's name, for assistive technology. */
  title: string;
  /** Where the registration is posted: a metric's observers, or the selector observers. */
  collection: string;
  context: PageContext;
  /** Fields before the target's, e.g. the selectors. */
  extraFields?: readonly RegistrationField[];
  /** The page of a registered observer, linked from the form's outcome. */
  pageOf?: (observer: RegisteredObserver) => string;
}

/** The target's fields: where and how deliveries go. */
function targetFields() {
  return {
    format: selectField("Format", { name: "format", values: observerFormats }),
    protocol: selectField("Protocol", { name: "protocol", values: observerProtocols }),
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
}

/** A target's field: its value as typed (a port as a number), its own problem as the API words it. */
function asRegistrationField(name: string, field: FormField<HTMLInputElement | HTMLSelectElement>): RegistrationField {
  return {
    name,
    field,
    value() {
      const value = field.control.value.trim();
      if (value === "" || field.element.hidden) return undefined;
      // A port is a number in JSON; anything else goes as typed, for the API to name the problem.
      return name === "observerPort" && /^\d+$/.test(value) ? Number(value) : value;
    },
    takes: (path) => path === `/${name}`,
    showProblem: (problem) => field.showError(problem.message),
  };
}

/**
 * The form that registers an observer in `collection`: its extra fields, then its target's
 * (format, protocol, address, secret). It checks nothing itself: the API judges the registration,
 * and each of its problems is shown at the field its path names (`/callbackUrl`, `/match/1`…),
 * the rest above the form.
 */
export function observerForm(options: ObserverFormOptions): HTMLElement {
  const { context } = options;
  const target = targetFields();
  const fields = [
    ...(options.extraFields ?? []),
    ...Object.entries(target).map(([name, field]) => asRegistrationField(name, field)),
  ];

  const alert = h("div", { class: "alert", role: "alert", hidden: true });
  const status = h("p", { class: "form-status", role: "status" });
  const submit = h("button", { type: "submit", class: "button button-primary" }, "Add observer");
  const titleId = uniqueId("form");
  const form = h(
    "form",
    { class: "card form", novalidate: true, "aria-labelledby": titleId },
    h("h3", { id: titleId, class: "visually-hidden" }, options.title),
    alert,
    h("div", { class: "form-grid" }, ...fields.map(({ field }) => field.element)),
    h("div", { class: "form-actions" }, submit, status),
  );

  /** The fields of the chosen protocol: TCP and UDP deliveries have a host and port, and are never signed. */
  const showAddressFields = () => {
    const http = target.protocol.control.value === "HTTP";
    target.callbackUrl.element.hidden = !http;
    target.secret.element.hidden = !http;
    target.observerHost.element.hidden = http;
    target.observerPort.element.hidden = http;
  };
  target.protocol.control.addEventListener("change", showAddressFields);
  showAddressFields();

  /** The registration as typed: empty fields and fields of the other protocol are left out. */
  const registration = (): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    for (const field of fields) {
      const value = field.value();
      if (value !== undefined) body[field.name] = value;
    }
    return body;
  };

  const showOutcome = (created: boolean, observer: RegisteredObserver) => {
    const secret = observer.secret ? ` Its secret, shown this once: ${observer.secret}` : "";
    const outcome = created ? "added" : "was registered already; its state is unchanged";
    const page = options.pageOf?.(observer);
    status.replaceChildren(
      `Observer ${observerTarget(observer)} ${outcome}.${secret}`,
      ...(page ? [" ", h("a", { href: page }, "Open its page")] : []),
    );
  };

  onSubmitOnce(form, submit, async () => {
    clearProblem(alert);
    setText(status, "");
    for (const { field } of fields) field.clearError();
    try {
      const { created, observer } = await api.addObserver(options.collection, registration());
      showOutcome(created, observer);
      for (const { field, name } of fields) {
        if (name !== "format" && name !== "protocol") field.control.value = "";
      }
      await context.refresh();
    } catch (error) {
      const problem = asProblem(error);
      if (problem.refusesToken) {
        context.report(problem);
        return;
      }
      const unplaced = problem.errors.filter((entry) => {
        const field = fields.find((candidate) => !candidate.field.element.hidden && candidate.takes(entry.path));
        field?.showProblem(entry);
        return field === undefined;
      });
      // The API's detail points at its list of errors; here they show at their fields instead.
      const detail =
        problem.errors.length === 0
          ? problem.detail
          : unplaced.length === 0
            ? "The observer was not added: correct the fields marked below."
            : "The observer was not added:";
      showProblem(alert, new ApiProblem(problem.status, detail, problem.errors), unplaced);
      const firstInvalid = fields.find(({ field }) => field.control.getAttribute("aria-invalid") === "true");
      firstInvalid?.field.control.focus();
    }
  });
  return form;
}

/** The form that registers an observer of `metric`. */
export function metricObserverForm(metric: string, context: PageContext): HTMLElement {
  return observerForm({ title: `Add an observer of ${metric}`, collection: metricObserversPath(metric), context });
}
