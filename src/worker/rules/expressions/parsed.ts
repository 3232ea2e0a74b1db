/*
 * What the rule's expression parsers give back: the parsed thing, or the one problem that stopped
 * them, located by its 1-based character position so that a 400 can point at it.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; position: number; message: string };

/** Thrown inside a parser to unwind its recursion; never leaves `parsing`. */
export class ParseProblem extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a parser that throws a `ParseProblem` on bad input, and turns that problem into a result. */
export function parsing<T>(parse: () => T): Parsed<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (error instanceof ParseProblem) return { ok: false, position: error.position, message: error.message };
    throw error;
  }
}
