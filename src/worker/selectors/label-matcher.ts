/*
 * One label matcher of a series selector, and the test it makes of a label's value. Regexes are
 * RE2, fully anchored with `.` matching newlines as in Prometheus, and run by re2js, whose time is
 * linear in the value whatever the pattern: a user's pattern never reaches a backtracking engine.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";

export const matchOperators = ["=", "!=", "=~", "!~"] as const;
export type MatchOperator = (typeof matchOperators)[number];

export interface LabelMatcher {
  readonly name: string;
  readonly operator: MatchOperator;
  readonly value: string;
}

export type ValueTest = (value: string) => boolean;

/** A regex RE2 refuses; the message is RE2's reason, e.g. "missing closing )". */
export class InvalidRegexError extends Error {
  override readonly name = "InvalidRegexError";
}

export function isRegexOperator(operator: MatchOperator): boolean {
  return operator === "=~" || operator === "!~";
}

/** Throws an `InvalidRegexError` for a regex operator whose value RE2 refuses. */
export function compileValueTest({ operator, value }: LabelMatcher): ValueTest {
  switch (operator) {
    case "=":
      return (candidate) => candidate === value;
    case "!=":
      return (candidate) => candidate !== value;
    case "=~": {
      const regex = compileAnchoredRegex(value);
      return (candidate) => regex.testExact(candidate);
    }
    case "!~": {
      const regex = compileAnchoredRegex(value);
      return (candidate) => !regex.testExact(candidate);
    }
  }
}

/** `(?s)` before the pattern, rather than a flag, so that RE2's messages quote exactly what was prefixed. */
const dotMatchesNewline = "(?s)";

/** Anchored by `testExact`, which matches the whole value or nothing. */
function compileAnchoredRegex(pattern: string): RE2JS {
  try {
    return RE2JS.compile(dotMatchesNewline + pattern);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    const fragment = error.input?.startsWith(dotMatchesNewline)
      ? error.input.slice(dotMatchesNewline.length)
      : error.input;
    throw new InvalidRegexError(fragment && fragment !== pattern ? `${error.error} (${fragment})` : error.error);
  }
}
