/*
 * PromQL's string literals, read as its lexer and Go's unquoting read them: "…" and '…' with Go's
 * escapes (each quote escapable only inside its own kind, no line break inside), and `…` raw,
 * without escapes. Go's strings hold bytes, so \xHH and \ooo are bytes: consecutive ones must
 * spell whole UTF-8 characters, as a JavaScript string can hold nothing else.
 */
import { SelectorSyntaxError } from "./selector-syntax-error";

export interface StringLiteral {
  /** The string the literal stands for. */
  readonly value: string;
  /** The index just past its closing quote. */
  readonly end: number;
}

export const quoteCharacters: readonly string[] = ['"', "'", "`"];

const singleCharacterEscapes = new Map([
  ["a", "\x07"],
  ["b", "\b"],
  ["f", "\f"],
  ["n", "\n"],
  ["r", "\r"],
  ["t", "\t"],
  ["v", "\v"],
  ["\\", "\\"],
]);

/** The escapes other than the single-character ones: how many digits follow, in which base. */
const numericEscapes = new Map([
  ["x", { digits: 2, radix: 16, spelled: "\\xHH" }],
  ["u", { digits: 4, radix: 16, spelled: "\\uHHHH" }],
  ["U", { digits: 8, radix: 16, spelled: "\\UHHHHHHHH" }],
]);
const octalEscape = { digits: 3, radix: 8, spelled: "\\ooo" };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads the literal that opens at `start`, where the text has one of `quoteCharacters`. */
export function readStringLiteral(text: string, start: number): StringLiteral {
  const quote = text[start]!;
  return quote === "`" ? readRawString(text, start) : readQuotedString(text, start, quote);
}

function readRawString(text: string, start: number): StringLiteral {
  let index = start + 1;
  while (index < text.length && text[index] !== "`") index += characterLength(text, index);
  if (index === text.length) throw unterminated(start, index, "`");
  return { value: text.slice(start + 1, index), end: index + 1 };
}

function readQuotedString(text: string, start: number, quote: string): StringLiteral {
  let value = "";
  const bytes: number[] = [];
  let bytesStart = 0;
  let index = start + 1;
  for (;;) {
    const character = text[index];
    if (character === undefined || character === "\n") throw unterminated(start, index, quote);
    if (character === quote) break;
    const piece = character === "\\" ? readEscape(text, index, start, quote) : readCharacter(text, index);
    if ("byte" in piece) {
      if (bytes.length === 0) bytesStart = index;
      bytes.push(piece.byte);
    } else {
      value += decodeUtf8(bytes, bytesStart) + piece.text;
      bytes.length = 0;
    }
    index = piece.end;
  }
  return { value: value + decodeUtf8(bytes, bytesStart), end: index + 1 };
}

/** A piece of a quoted string: text, or one byte of a UTF-8 character; `end` is the index after it. */
type Piece = { text: string; end: number } | { byte: number; end: number };

function readCharacter(text: string, index: number): Piece {
  const end = index + characterLength(text, index);
  return { text: text.slice(index, end), end };
}

/** The escape sequence at `index`, in the string that opens at `start`. */
function readEscape(text: string, index: number, start: number, quote: string): Piece {
  const letter = text[index + 1];
  if (letter === undefined) throw unterminated(start, index + 1, quote);
  const replacement = letter === quote ? quote : singleCharacterEscapes.get(letter);
  if (replacement !== undefined) return { text: replacement, end: index + 2 };
  const isOctal = letter >= "0" && letter <= "7";
  const form = isOctal ? octalEscape : numericEscapes.get(letter);
  if (form === undefined) throw unknownEscape(text, index, quote);
  const digitsStart = isOctal ? index + 1 : index + 2;
  const number = readDigits(text, index, digitsStart, form);
  const end = digitsStart + form.digits;
  if (letter === "u" || letter === "U") return { text: codePoint(number, index), end };
  if (number > 0xff) throw new SelectorSyntaxError(index, "an octal escape above \\377", "expected one byte");
  return { byte: number, end };
}

/** The digits of an escape that begins at `escapeStart`, as a number. */
function readDigits(
  text: string,
  escapeStart: number,
  digitsStart: number,
  form: { digits: number; radix: number; spelled: string },
): number {
  let number = 0;
  for (let offset = 0; offset < form.digits; offset++) {
    const digit = Number.parseInt(text[digitsStart + offset] ?? "", form.radix);
    if (Number.isNaN(digit)) {
      const kind = form.radix === 8 ? "octal" : "hexadecimal";
      throw new SelectorSyntaxError(
        escapeStart,
        `an incomplete escape sequence ${text.slice(escapeStart, digitsStart + offset)}`,
        `expected ${form.digits} ${kind} digits, as in ${form.spelled}`,
      );
    }
    number = number * form.radix + digit;
  }
  return number;
}

function codePoint(number: number, position: number): string {
  if (number > 0x10ffff || (number >= 0xd800 && number <= 0xdfff)) {
    throw new SelectorSyntaxError(
      position,
      `an escape of U+${number.toString(16).toUpperCase()}`,
      "expected a Unicode code point (up to U+10FFFF, no surrogate)",
    );
  }
  return String.fromCodePoint(number);
}

/** The bytes as UTF-8; `position` is where the first was escaped. */
function decodeUtf8(bytes: readonly number[], position: number): string {
  if (bytes.length === 0) return "";
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    throw new SelectorSyntaxError(
      position,
      "escaped bytes that are not UTF-8",
      "expected \\x and octal escapes to spell whole UTF-8 characters, as \\xc3\\xa9 spells é",
    );
  }
}

/** 2 for a surrogate pair, 1 for any other code unit but a lone surrogate, which UTF-8 cannot encode. */
function characterLength(text: string, index: number): 1 | 2 {
  const unit = text.charCodeAt(index);
  if (unit < 0xd800 || unit > 0xdfff) return 1;
  const next = text.charCodeAt(index + 1);
  if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return 2;
  throw new SelectorSyntaxError(index, `a lone surrogate ${JSON.stringify(text[index])}`, "expected a whole character");
}

function unterminated(start: number, position: number, quote: string): SelectorSyntaxError {
  return new SelectorSyntaxError(
    position,
    "an unterminated string",
    `expected the closing ${quote} of the string that opens at position ${start}`,
  );
}

function unknownEscape(text: string, index: number, quote: string): SelectorSyntaxError {
  const escaped = String.fromCodePoint(text.codePointAt(index + 1)!);
  const escapes = `\\a \\b \\f \\n \\r \\t \\v \\\\ \\${quote} \\xHH \\ooo \\uHHHH \\UHHHHHHHH`;
  return new SelectorSyntaxError(index, `an unknown escape sequence \\${escaped}`, `expected one of ${escapes}`);
}
