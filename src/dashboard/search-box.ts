import { h, setText, uniqueId } from "./dom";

/**
 * The overview's search: a field whose every change (no request: the page has the data) is handed
 * to `onSearch`, and a line under it for why a query is not read as the user may have meant it.
 */
export function searchBox(onSearch: (query: string) => void): {
  element: HTMLElement;
  showProblem(problem: string | undefined): void;
} {
  const id = uniqueId("search");
  const hintId = uniqueId("search-hint");
  const input = h("input", {
    id,
    type: "search",
    name: "search",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: 'Name, label or selector: node_, job="node", {__name__=~"cpu.*"}',
    "aria-describedby": hintId,
  });
  const hint = h("p", { id: hintId, class: "field-hint" });
  hint.hidden = true;
  input.addEventListener("input", () => onSearch(input.value));
  return {
    element: h(
      "div",
      { class: "field search-box" },
      h("label", { for: id }, "Search metrics and observers"),
      input,
      hint,
    ),
    showProblem(problem) {
      setText(hint, problem ?? "");
      hint.hidden = problem === undefined;
    },
  };
}
