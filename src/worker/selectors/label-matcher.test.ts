import { describe, expect, it } from "vitest";
import { compileValueTest, InvalidRegexError, type LabelMatcher, type MatchOperator } from "./label-matcher";

function accepted(operator: MatchOperator, value: string, candidates: string[]): string[] {
  const test = compileValueTest({ name: "x", operator, value });
  return candidates.filter(test);
}

function regexProblem(pattern: string): string {
  try {
    compileValueTest({ name: "x", operator: "=~", value: pattern });
  } catch (error) {
    if (error instanceof InvalidRegexError) return error.message;
    throw error;
  }
  throw new Error(`${pattern} compiled`);
}

describe("compileValueTest", () => {
  it("compares strings with = and !=", () => {
    expect(accepted("=", "web", ["web", "web1", "", "Web"])).toEqual(["web"]);
    expect(accepted("!=", "web", ["web", "web1", "", "Web"])).toEqual(["web1", "", "Web"]);
    expect(accepted("=", "", ["", "a"])).toEqual([""]);
  });

  it("matches a regex against the whole value, as if between ^ and $", () => {
    expect(accepted("=~", "web-.*", ["web-1", "web-", "my-web-1", "web"])).toEqual(["web-1", "web-"]);
    expect(accepted("=~", "a|ab", ["a", "ab", "abc"])).toEqual(["a", "ab"]);
    expect(accepted("=~", "^a$", ["a", "aa"])).toEqual(["a"]);
    expect(accepted("!~", "web-.*", ["web-1", "db-1", ""])).toEqual(["db-1", ""]);
  });

  it("lets . match a line break, as Prometheus does", () => {
    expect(accepted("=~", "a.b", ["a\nb"])).toEqual(["a\nb"]);
    expect(accepted("=~", ".*", ["line 1\nline 2"])).toEqual(["line 1\nline 2"]);
  });

  it("reads RE2 syntax: classes, flags, Unicode classes, code points", () => {
    expect(accepted("=~", "(?i)GET|post", ["get", "POST", "put"])).toEqual(["get", "POST"]);
    expect(accepted("=~", "[[:digit:]]+\\pL", ["12a", "12", "a"])).toEqual(["12a"]);
    expect(accepted("=~", "\\p{Greek}+", ["αβ", "ab"])).toEqual(["αβ"]);
    expect(accepted("=~", ".", ["😀", "ab"])).toEqual(["😀"]);
  });

  it("refuses what RE2 refuses, with its reason, quoting the part at fault", () => {
    expect(regexProblem("(a")).toBe("missing closing )");
    expect(regexProblem("a)|(b")).toBe("unexpected )");
    expect(regexProblem("[z-a]")).toBe("invalid character class range (z-a)");
    expect(regexProblem("x{1001}")).toBe("invalid repeat count ({1001})");
    expect(regexProblem("(?<=a)b")).toBe("invalid named capture");
    expect(regexProblem("a\\1")).toBe("invalid escape sequence (\\1)");
  });

  it("does not touch the regex for = and !=", () => {
    const matcher: LabelMatcher = { name: "x", operator: "=", value: "(" };
    expect(compileValueTest(matcher)("(")).toBe(true);
  });
});
