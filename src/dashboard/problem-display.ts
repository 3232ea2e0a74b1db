import { ApiProblem } from "./api-client";
import type { FieldProblem } from "./api-types";
import { h } from "./dom";

/** Any failure as a problem: the API's own, or one made from an error of the page. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem(0, error instanceof Error ? error.message : String(error));
}

function problemList(errors: readonly FieldProblem[]): HTMLUListElement | undefined {
  if (errors.length === 0) return undefined;
  return h(
    "ul",
    { class: "problem-errors" },
    ...errors.map((entry) =>
      h("li", {}, entry.path ? h("code", {}, entry.path) : "", entry.path ? ": " : "", entry.message),
    ),
  );
}

/**
 * Shows a problem in `region` (an element with role="alert"): the API's detail, then each of its
 * errors as `path: message` (only `errors` when given, e.g. those no field showed).
 */
export function showProblem(region: HTMLElement, problem: ApiProblem, errors = problem.errors): void {
  region.replaceChildren(h("p", { class: "problem-detail" }, problem.detail), problemList(errors) ?? "");
  region.hidden = false;
}

export function clearProblem(region: HTMLElement): void {
  if (region.hidden && region.childElementCount === 0) return;
  region.replaceChildren();
  region.hidden = true;
}
