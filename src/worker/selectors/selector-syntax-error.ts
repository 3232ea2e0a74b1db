/**
 * Why a series selector was refused, and where: `position` is the 0-based index in its text, in
 * UTF-16 code units as JavaScript strings and text inputs count them, so that a form can put its
 * cursor there. The message says the same, e.g. `unexpected "}" at position 14: expected a label name`.
 */
export class SelectorSyntaxError extends Error {
  override readonly name = "SelectorSyntaxError";

  constructor(
    readonly position: number,
    problem: string,
    detail?: string,
  ) {
    super(`${problem} at position ${position}${detail === undefined ? "" : `: ${detail}`}`);
  }
}
