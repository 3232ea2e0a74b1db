import { parseSeriesSelector, SelectorSyntaxError } from "../worker/selectors/selector-syntax";
import { h } from "./dom";
import { textAreaField } from "./form-fields";
import type { RegistrationField } from "./observer-form";

/** A selector as typed on its line of the text area. */
interface SelectorLine {
  /** 1-based, as a person counts lines. */
  readonly number: number;
  /** Trimmed: the selector sent. */
  readonly text: string;
  /** Where the selector begins in the text area's value. */
  readonly offset: number;
}

/** The lines that hold something, each a selector. */
function selectorLines(value: string): SelectorLine[] {
  const lines: SelectorLine[] = [];
  let offset = 0;
  for (const [index, line] of value.split("\n").entries()) {
    const text = line.trim();
    if (text !== "") lines.push({ number: index + 1, text, offset: offset + line.indexOf(text) });
    offset += line.length + 1;
  }
  return lines;
}

/** Why the line is not a selector, with where; undefined when it is one. */
function syntaxErrorOf(line: SelectorLine): SelectorSyntaxError | undefined {
  try {
    parseSeriesSelector(line.text);
    return undefined;
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return error;
    throw error;
  }
}

/** The line with the character at `position` marked (a space when the problem is its end). */
function markedExcerpt(text: string, position: number): HTMLElement {
  const marked = text.slice(position, position + 1) || " ";
  return h("code", {}, text.slice(0, position), h("mark", {}, marked), text.slice(position + 1));
}

/**
 * The `match` of a selector observer: a text area of PromQL series selectors, one a line, each
 * checked as it is typed by the very parser the service uses. A problem shows under it in the
 * parser's words, which give its position, with the line shown and that position marked; the
 * service's own problems (a selector at `/match/<i>`, the whole at `/match`) show the same way.
 */
export function selectorField(): RegistrationField {
  const field = textAreaField("Selectors", {
    name: "match",
    rows: 4,
    placeholder: '{__name__=~"node_.*",job="node"}\ncpu_usage_idle{host=~"web-.*"}',
    hint: "One PromQL series selector a line; a datum is forwarded when any of them matches it.",
  });
  const excerpt = h("p", { class: "selector-excerpt", "aria-hidden": "true", hidden: true });
  field.element.append(excerpt);
  field.element.classList.add("field-wide");
  const textarea = field.control;

  const clear = () => {
    field.clearError();
    excerpt.hidden = true;
    excerpt.replaceChildren();
  };

  /** Shows `message` about `line`, marking the position of its syntax error when it has one. */
  const showAbout = (line: SelectorLine, message: string, error = syntaxErrorOf(line)) => {
    field.showError(`Line ${line.number}: ${message}`);
    excerpt.replaceChildren(...(error ? [markedExcerpt(line.text, error.position)] : []));
    excerpt.hidden = error === undefined;
    return error;
  };

  const check = () => {
    clear();
    for (const line of selectorLines(textarea.value)) {
      const error = syntaxErrorOf(line);
      if (!error) continue;
      showAbout(line, error.message, error);
      return;
    }
  };
  textarea.addEventListener("input", check);

  return {
    name: "match",
    field: { ...field, clearError: clear },
    value() {
      const lines = selectorLines(textarea.value);
      return lines.length === 0 ? undefined : lines.map((line) => line.text);
    },
    takes: (path) => path === "/match" || path.startsWith("/match/"),
    showProblem(problem) {
      const line = selectorLines(textarea.value)[Number(problem.path.split("/")[2])];
      if (!line) {
        field.showError(problem.message);
        return;
      }
      const error = showAbout(line, problem.message);
      // Where focusing the field puts the cursor: at the problem (never moved while one types).
      if (error) textarea.setSelectionRange(line.offset + error.position, line.offset + error.position);
    },
  };
}
