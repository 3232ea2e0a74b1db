/*
 * PromQL's series selector, as Prometheus 3 reads it:
 *
 *   selector := metric-name [ "{" matchers "}" ] | "{" matchers "}"
 *   matchers := [ item { "," item } [ "," ] ]
 *   item     := label-name operator string | string    a string alone is the metric name
 *
 * with metric names `[a-zA-Z_:][a-zA-Z0-9_:]*`, label names the same without colons or quoted,
 * whitespace anywhere between tokens. This module imports nothing of the Worker's: the dashboard
 * checks a selector with it as it is typed.
 */
import {
  compileValueTest,
  InvalidRegexError,
  isRegexOperator,
  type LabelMatcher,
  type MatchOperator,
  matchOperators,
  type ValueTest,
} from "./label-matcher";
import { SelectorLexer, type Token, type TokenKind } from "./selector-lexer";
import { SelectorSyntaxError } from "./selector-syntax-error";

export type { LabelMatcher } from "./label-matcher";
export { SelectorSyntaxError } from "./selector-syntax-error";

export const MAX_SELECTOR_LENGTH = 1_024;
export const MAX_MATCHERS_PER_SELECTOR = 32;
export const MAX_REGEX_LENGTH = 512;

/** The label a metric name is matched as. */
export const metricNameLabel = "__name__";

export interface SeriesSelector {
  /** As written. */
  readonly text: string;
  /** In the order written; a metric name, before the braces or alone inside them, is a `__name__` "=" matcher. */
  readonly matchers: readonly LabelMatcher[];
}

/**
 * Throws a `SelectorSyntaxError` for text that is not a selector, that is over a bound, that has a
 * regex RE2 refuses, or whose every matcher matches the empty string (it would select series by
 * the labels they lack, which PromQL refuses).
 */
export function parseSeriesSelector(text: string): SeriesSelector {
  if (text.length > MAX_SELECTOR_LENGTH) {
    throw new SelectorSyntaxError(
      MAX_SELECTOR_LENGTH,
      "the selector goes on",
      `expected at most ${MAX_SELECTOR_LENGTH} characters`,
    );
  }
  return { text, matchers: new SelectorParser(text).parse() };
}

const longestExcerpt = 60;

/** `text`, shortened for a message. */
function excerpt(text: string): string {
  return text.length <= longestExcerpt ? text : `${text.slice(0, longestExcerpt)}…`;
}

function isOperator(kind: TokenKind): kind is MatchOperator {
  return (matchOperators as readonly TokenKind[]).includes(kind);
}

class SelectorParser {
  private readonly lexer: SelectorLexer;
  private current: Token;
  private readonly matchers: LabelMatcher[] = [];
  private readonly tests: ValueTest[] = [];
  private nameBeforeBraces: string | undefined;

  constructor(private readonly text: string) {
    this.lexer = new SelectorLexer(text);
    this.current = this.lexer.next();
  }

  parse(): LabelMatcher[] {
    const start = this.current;
    if (start.kind === "identifier") {
      this.advance();
      this.add(start, { name: metricNameLabel, operator: "=", value: start.value }, start);
      this.nameBeforeBraces = start.value;
    }
    const hasBraces = this.current.kind === "{";
    if (hasBraces) {
      this.advance();
      this.parseMatchers();
    } else if (this.nameBeforeBraces === undefined) {
      this.fail('a metric name or "{"');
    }
    if (this.current.kind !== "end")
      this.fail(hasBraces ? "the end of the selector" : '"{" or the end of the selector');
    if (this.tests.every((test) => test(""))) {
      throw new SelectorSyntaxError(
        start.position,
        "every matcher matches the empty string",
        "expected at least one that does not, such as a metric name (a label a series lacks reads as empty)",
      );
    }
    return this.matchers;
  }

  private parseMatchers(): void {
    while (!this.at("}")) {
      this.parseItem();
      if (this.at(",")) this.advance();
      else if (!this.at("}")) this.fail('"," or "}"');
    }
    this.advance();
  }

  private parseItem(): void {
    const start = this.current;
    if (start.kind === "string") {
      this.advance();
      if (!isOperator(this.current.kind)) {
        this.add(start, { name: metricNameLabel, operator: "=", value: start.value }, start);
        return;
      }
      if (start.value === "") throw new SelectorSyntaxError(start.position, "an empty label name");
    } else if (start.kind === "identifier") {
      const colon = start.value.indexOf(":");
      if (colon >= 0) {
        throw new SelectorSyntaxError(
          start.position + colon,
          `a colon in the label name ${JSON.stringify(start.value)}`,
          "expected letters, digits and underscores, or the name quoted",
        );
      }
      this.advance();
    } else {
      this.fail("a label name");
    }
    const operator = this.current.kind;
    if (!isOperator(operator)) this.fail("one of =, !=, =~, !~");
    this.advance();
    const value = this.current;
    if (value.kind !== "string") this.fail("a quoted string");
    this.advance();
    this.add(start, { name: start.value, operator, value: value.value }, value);
  }

  /** `start` is the matcher's first token, `value` the token of its value. */
  private add(start: Token, matcher: LabelMatcher, value: Token): void {
    if (this.matchers.length === MAX_MATCHERS_PER_SELECTOR) {
      throw new SelectorSyntaxError(
        start.position,
        "one matcher too many",
        `expected at most ${MAX_MATCHERS_PER_SELECTOR} in a selector`,
      );
    }
    if (this.nameBeforeBraces !== undefined && matcher.name === metricNameLabel) {
      throw new SelectorSyntaxError(
        start.position,
        "a second metric name",
        `expected none inside the braces, as ${this.nameBeforeBraces} before them is the metric name`,
      );
    }
    if (isRegexOperator(matcher.operator) && matcher.value.length > MAX_REGEX_LENGTH) {
      throw new SelectorSyntaxError(
        value.position,
        `a regex of ${matcher.value.length} characters`,
        `expected at most ${MAX_REGEX_LENGTH}`,
      );
    }
    this.matchers.push(matcher);
    this.tests.push(this.compile(matcher, start, value));
  }

  private compile(matcher: LabelMatcher, start: Token, value: Token): ValueTest {
    try {
      return compileValueTest(matcher);
    } catch (error) {
      if (!(error instanceof InvalidRegexError)) throw error;
      const written = this.text.slice(start.position, value.position + value.text.length);
      throw new SelectorSyntaxError(value.position, `an invalid regex in ${excerpt(written)}`, error.message);
    }
  }

  /** Not a narrowing comparison: the current token changes as the parser advances. */
  private at(kind: TokenKind): boolean {
    return this.current.kind === kind;
  }

  private advance(): void {
    this.current = this.lexer.next();
  }

  private fail(expected: string): never {
    throw new SelectorSyntaxError(
      this.current.position,
      `unexpected ${this.describe(this.current)}`,
      `expected ${expected}`,
    );
  }

  private describe(token: Token): string {
    switch (token.kind) {
      case "end":
        return "end of the selector";
      case "identifier":
        return `identifier ${JSON.stringify(excerpt(token.text))}`;
      case "string":
        return `string ${excerpt(token.text)}`;
      default:
        return JSON.stringify(token.text);
    }
  }
}
