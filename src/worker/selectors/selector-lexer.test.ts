import { describe, expect, it } from "vitest";
import { SelectorLexer, type Token } from "./selector-lexer";

function tokensOf(text: string): Token[] {
  const lexer = new SelectorLexer(text);
  const tokens = [lexer.next()];
  while (tokens.at(-1)!.kind !== "end") tokens.push(lexer.next());
  return tokens;
}

describe("SelectorLexer", () => {
  it("reads names, strings, punctuation and operators with where each begins", () => {
    expect(tokensOf('up{job=~"a",x!=`b`, y!~\'c\',z="d"}').map(({ kind, position }) => [kind, position])).toEqual([
      ["identifier", 0],
      ["{", 2],
      ["identifier", 3],
      ["=~", 6],
      ["string", 8],
      [",", 11],
      ["identifier", 12],
      ["!=", 13],
      ["string", 15],
      [",", 18],
      ["identifier", 20],
      ["!~", 21],
      ["string", 23],
      [",", 26],
      ["identifier", 27],
      ["=", 28],
      ["string", 29],
      ["}", 32],
      ["end", 33],
    ]);
  });

  it("skips spaces, tabs and line breaks between tokens", () => {
    expect(tokensOf(' \t{\r\n"a"\n}  ').map(({ kind, position }) => [kind, position])).toEqual([
      ["{", 2],
      ["string", 5],
      ["}", 9],
      ["end", 12],
    ]);
  });

  it("keeps a string as written and as the string it stands for", () => {
    expect(tokensOf('"a\\tb"')[0]).toEqual({ kind: "string", position: 0, text: '"a\\tb"', value: "a\tb" });
  });

  it("reads a metric name with colons and digits as one identifier", () => {
    expect(tokensOf("job:rate5m:sum_2")[0]).toMatchObject({ kind: "identifier", text: "job:rate5m:sum_2" });
  });

  it("makes a character that begins no token an `other` token, a whole code point", () => {
    expect(tokensOf("!a")[0]).toMatchObject({ kind: "other", text: "!", position: 0 });
    expect(tokensOf("a 😀")[1]).toMatchObject({ kind: "other", text: "😀", position: 2 });
    expect(tokensOf("7")[0]).toMatchObject({ kind: "other", text: "7" });
    expect(tokensOf("==").map((token) => token.kind)).toEqual(["=", "=", "end"]);
  });
});
