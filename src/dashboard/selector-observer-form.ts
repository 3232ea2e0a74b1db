import { selectorObserversPath } from "./api";
import { observerForm } from "./observer-form";
import type { PageContext } from "./page";
import { selectorObserverHref } from "./router";
import { selectorField } from "./selector-field";

/** The form that registers an observer of the data its selectors match, whatever their metrics. */
export function selectorObserverForm(context: PageContext): HTMLElement {
  return observerForm({
    title: "Forward by selector",
    collection: selectorObserversPath,
    context,
    extraFields: [selectorField()],
    pageOf: (observer) => selectorObserverHref(observer.id),
  });
}
