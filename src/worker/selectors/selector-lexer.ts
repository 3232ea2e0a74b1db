/*
 * The tokens of a series selector, one at a time as the parser asks for them, so that the problem
 * reported is the first one in the text, whether a token's or the grammar's. A character that
 * begins no token becomes an `other` token rather than an error, so that the parser can say what
 * it expected in its place.
 */
import { type MatchOperator, matchOperators } from "./label-matcher";
import { quoteCharacters, readStringLiteral } from "./string-literal";

export type TokenKind = "identifier" | "string" | "{" | "}" | "," | MatchOperator | "other" | "end";

export interface Token {
  readonly kind: TokenKind;
  /** Where it begins in the selector's text. */
  readonly position: number;
  /** As written. */
  readonly text: string;
  /** For a string, the string it stands for; otherwise the text. */
  readonly value: string;
}

/** PromQL's metric name; a label name is the same without colons, which the parser checks. */
const identifier = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const whitespace = /[ \t\r\n]*/y;
const punctuation: readonly TokenKind[] = ["{", "}", ","];
// Longest first, so that `=~` is not read as `=` followed by `~`.
const operatorsByLength = [...matchOperators].sort((a, b) => b.length - a.length);

export class SelectorLexer {
  private offset = 0;

  constructor(private readonly text: string) {}

  next(): Token {
    const { text } = this;
    whitespace.lastIndex = this.offset;
    whitespace.exec(text);
    const position = whitespace.lastIndex;
    const token = this.tokenAt(position);
    this.offset = position + token.text.length;
    return token;
  }

  private tokenAt(position: number): Token {
    const { text } = this;
    const character = text[position];
    if (character === undefined) return { kind: "end", position, text: "", value: "" };
    if (quoteCharacters.includes(character)) {
      const { value, end } = readStringLiteral(text, position);
      return { kind: "string", position, text: text.slice(position, end), value };
    }
    identifier.lastIndex = position;
    const name = identifier.exec(text)?.[0];
    if (name !== undefined) return { kind: "identifier", position, text: name, value: name };
    const symbol =
      punctuation.find((kind) => kind === character) ??
      operatorsByLength.find((operator) => text.startsWith(operator, position));
    if (symbol !== undefined) return { kind: symbol, position, text: symbol, value: symbol };
    const other = String.fromCodePoint(text.codePointAt(position)!);
    return { kind: "other", position, text: other, value: other };
  }
}
