import { describe, expect, it } from "vitest";
import { SelectorSyntaxError } from "./selector-syntax-error";
import { readStringLiteral } from "./string-literal";

/** The value of the literal that opens the text. */
function valueRead(literal: string): string {
  return readStringLiteral(literal, 0).value;
}

function problemOf(literal: string): { position: number; message: string } {
  try {
    readStringLiteral(literal, 0);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return { position: error.position, message: error.message };
    throw error;
  }
  throw new Error(`${literal} was read`);
}

describe("readStringLiteral", () => {
  it("reads the three kinds of quotes and says where the literal ends", () => {
    expect(readStringLiteral('x="a b",', 2)).toEqual({ value: "a b", end: 7 });
    expect(readStringLiteral("'a\"b'}", 0)).toEqual({ value: 'a"b', end: 5 });
    expect(readStringLiteral("`a'\"b`", 0)).toEqual({ value: "a'\"b", end: 6 });
    expect(valueRead('""')).toBe("");
  });

  it.each([
    ["\\a", "\x07"],
    ["\\b", "\b"],
    ["\\f", "\f"],
    ["\\n", "\n"],
    ["\\r", "\r"],
    ["\\t", "\t"],
    ["\\v", "\v"],
    ["\\\\", "\\"],
    ["\\x41", "A"],
    ["\\x7e", "~"],
    ["\\101", "A"],
    ["\\000", "\0"],
    ["\\u00e9", "é"],
    ["\\u4E2D", "中"],
    ["\\U0001F600", "😀"],
    ["\\xc3\\xa9", "é"],
    ["\\303\\251", "é"],
    ["\\xf0\\x9f\\x98\\x80", "😀"],
    ["\\xef\\xbb\\xbf", "\ufeff"],
  ])("reads the escape %s in double and single quotes", (sequence, value) => {
    expect(valueRead(`"${sequence}"`)).toBe(value);
    expect(valueRead(`'${sequence}'`)).toBe(value);
  });

  it("lets each kind of quote escape its own quote only", () => {
    expect(valueRead('"a\\"b"')).toBe('a"b');
    expect(valueRead("'a\\'b'")).toBe("a'b");
    expect(problemOf('"\\\'"').message).toBe(
      "an unknown escape sequence \\' at position 1: expected one of \\a \\b \\f \\n \\r \\t \\v \\\\ \\\" \\xHH \\ooo \\uHHHH \\UHHHHHHHH",
    );
    expect(problemOf("'\\\"'").position).toBe(1);
  });

  it("mixes escapes and characters, astral ones included", () => {
    expect(valueRead('"caf\\xc3\\xa9 😀\\t\\u00e9!"')).toBe("café 😀\té!");
  });

  it("takes everything but the backquote as it is in a raw string, line breaks and backslashes too", () => {
    expect(valueRead("`a\\n\\x\nb\"'`")).toBe("a\\n\\x\nb\"'");
  });

  it.each([
    ['"abc', 4, 'an unterminated string at position 4: expected the closing " of the string that opens at position 0'],
    [
      "'ab\ncd'",
      3,
      "an unterminated string at position 3: expected the closing ' of the string that opens at position 0",
    ],
    ['"ab\\', 4, 'an unterminated string at position 4: expected the closing " of the string that opens at position 0'],
    ["`ab", 3, "an unterminated string at position 3: expected the closing ` of the string that opens at position 0"],
    ['"a\\qb"', 2, "an unknown escape sequence \\q at position 2"],
    ['"\\8"', 1, "an unknown escape sequence \\8 at position 1"],
    ['"\\😀"', 1, "an unknown escape sequence \\😀 at position 1"],
    ['"ab\\x4"', 3, "an incomplete escape sequence \\x4 at position 3: expected 2 hexadecimal digits, as in \\xHH"],
    ['"\\u12G4"', 1, "an incomplete escape sequence \\u12 at position 1: expected 4 hexadecimal digits, as in \\uHHHH"],
    ['"\\U1F600"', 1, "expected 8 hexadecimal digits, as in \\UHHHHHHHH"],
    ['"\\19"', 1, "an incomplete escape sequence \\1 at position 1: expected 3 octal digits, as in \\ooo"],
    ['"\\400"', 1, "an octal escape above \\377 at position 1: expected one byte"],
    ['"\\ud800"', 1, "an escape of U+D800 at position 1: expected a Unicode code point (up to U+10FFFF, no surrogate)"],
    ['"\\U00110000"', 1, "an escape of U+110000 at position 1"],
    ['"a\\xc3"', 2, "escaped bytes that are not UTF-8 at position 2"],
    ['"\\xc3b"', 1, "escaped bytes that are not UTF-8 at position 1"],
    ['"a\\xff\\xfe"', 2, "escaped bytes that are not UTF-8 at position 2"],
    ['"a\ud800b"', 2, 'a lone surrogate "\\ud800" at position 2: expected a whole character'],
    ["`\udc00`", 1, 'a lone surrogate "\\udc00" at position 1'],
  ])("refuses %j at position %i", (literal, position, message) => {
    const problem = problemOf(literal);
    expect(problem.position).toBe(position);
    expect(problem.message).toContain(message);
  });
});
