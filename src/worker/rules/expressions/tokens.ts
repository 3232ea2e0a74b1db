/*
 * The words of the condition language and of the `value` expression: numbers, names, symbols.
 * Both languages share them, so one tokenizer reads both and each parser rejects the symbols it
 * has no use for. A character neither language uses becomes an `unknown` token rather than an
 * error here, so the parser can say what it expected in its place.
 */
import { ParseProblem } from "./parsed";

export interface Token {
  kind: "number" | "name" | "symbol" | "unknown" | "end";
  /** As written, for messages. */
  text: string;
  /** For symbols, the ASCII form of a synonym (× is *, ÷ is /, − is -); otherwise the text. */
  symbol: string;
  /** 1-based, counted in characters (code points), as people count them. */
  position: number;
}

/**
 * One token (or a run of whitespace) at a time. Two-character symbols come before their first
 * character, so that `>=` is not read as `>` followed by `=`; the last branch takes any other
 * character (a whole code point) as an unknown token.
 */
const word = /(\s+)|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(>=|<=|<>|&&|\|\||[><=!(),+\-*/×÷−])|./suy;
const synonyms: Record<string, string> = { "×": "*", "÷": "/", "−": "-" };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 1;
  word.lastIndex = 0;
  for (let match = word.exec(text); match; match = word.exec(text)) {
    const [matched, space, number, name, symbol] = match;
    if (number !== undefined) tokens.push({ kind: "number", text: number, symbol: number, position });
    else if (name !== undefined) tokens.push({ kind: "name", text: name, symbol: name, position });
    else if (symbol !== undefined)
      tokens.push({ kind: "symbol", text: symbol, symbol: synonyms[symbol] ?? symbol, position });
    else if (space === undefined) tokens.push({ kind: "unknown", text: matched, symbol: matched, position });
    position += [...matched].length;
  }
  tokens.push({ kind: "end", text: "", symbol: "", position });
  return tokens;
}

/**
 * Walks the tokens of one expression for a recursive-descent parser, and words its problems:
 * `subject` is what the user calls the expression ("condition", "value").
 */
export class Cursor {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly subject: string,
  ) {}

  get current(): Token {
    return this.tokens[this.index]!;
  }

  advance(): Token {
    const token = this.current;
    if (token.kind !== "end") this.index++;
    return token;
  }

  isSymbol(...symbols: string[]): boolean {
    return this.current.kind === "symbol" && symbols.includes(this.current.symbol);
  }

  /** How a token is named in a message. */
  describe(token: Token): string {
    return token.kind === "end" ? `the end of the ${this.subject}` : `"${token.text}"`;
  }

  fail(detail: string, position: number = this.current.position): never {
    throw new ParseProblem(position, `The ${this.subject} does not parse at position ${position}: ${detail}.`);
  }

  expected(what: string): never {
    this.fail(`expected ${what}, found ${this.describe(this.current)}`);
  }

  /**
   * Steps over the current token, which opens a nested level of the grammar (a parenthesis, `!`,
   * unary minus), and parses that level. The depth is bounded so that a hostile input is a
   * problem in the document, not a stack overflow in the Worker.
   */
  nested<T>(parse: () => T): T {
    if (this.depth >= maxDepth) this.fail(`it nests more than ${maxDepth} levels deep`);
    this.advance();
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }
}

const maxDepth = 100;
