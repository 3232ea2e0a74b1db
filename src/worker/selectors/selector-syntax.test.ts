import { describe, expect, it } from "vitest";
import type { LabelMatcher } from "./label-matcher";
import {
  MAX_MATCHERS_PER_SELECTOR,
  MAX_REGEX_LENGTH,
  MAX_SELECTOR_LENGTH,
  parseSeriesSelector,
  SelectorSyntaxError,
} from "./selector-syntax";

function matchersOf(text: string): [string, string, string][] {
  return parseSeriesSelector(text).matchers.map(({ name, operator, value }) => [name, operator, value]);
}

function problemOf(text: string): { position: number; message: string } {
  try {
    parseSeriesSelector(text);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return { position: error.position, message: error.message };
    throw error;
  }
  throw new Error(`${text} was parsed`);
}

describe("parseSeriesSelector", () => {
  it("keeps the text as written", () => {
    const text = ' up{job="node"} ';
    expect(parseSeriesSelector(text).text).toBe(text);
  });

  it("reads a metric name alone, as a __name__ matcher", () => {
    expect(matchersOf("up")).toEqual([["__name__", "=", "up"]]);
    expect(matchersOf("job:http_requests:rate5m")).toEqual([["__name__", "=", "job:http_requests:rate5m"]]);
    expect(matchersOf("_x")).toEqual([["__name__", "=", "_x"]]);
  });

  it("reads a metric name with matchers, the name first", () => {
    expect(matchersOf('node_cpu_seconds_total{mode!="idle",cpu=~"0|1"}')).toEqual([
      ["__name__", "=", "node_cpu_seconds_total"],
      ["mode", "!=", "idle"],
      ["cpu", "=~", "0|1"],
    ]);
    expect(matchersOf("up{}")).toEqual([["__name__", "=", "up"]]);
  });

  it("reads matchers alone, __name__ among them", () => {
    expect(matchersOf('{__name__=~"node_.*",job="node"}')).toEqual([
      ["__name__", "=~", "node_.*"],
      ["job", "=", "node"],
    ]);
    expect(matchersOf('{job=~"a|b"}')).toEqual([["job", "=~", "a|b"]]);
  });

  it("reads every operator", () => {
    expect(matchersOf('{a="1",b!="2",c=~"3",d!~"4"}').map(([, operator]) => operator)).toEqual(["=", "!=", "=~", "!~"]);
  });

  it("reads a quoted metric name among the matchers, wherever it stands (Prometheus 3)", () => {
    expect(matchersOf('{"cpu.usage_idle", host=~"web-.*"}')).toEqual([
      ["__name__", "=", "cpu.usage_idle"],
      ["host", "=~", "web-.*"],
    ]);
    expect(matchersOf("{host=\"a\", 'cpu.usage idle'}")).toEqual([
      ["host", "=", "a"],
      ["__name__", "=", "cpu.usage idle"],
    ]);
    expect(matchersOf("{`up`}")).toEqual([["__name__", "=", "up"]]);
  });

  it("reads quoted label names (Prometheus 3), which may hold anything", () => {
    expect(matchersOf('{"my.label"="x", \'service.name\'!=`y`, "a b"=~"z"}')).toEqual([
      ["my.label", "=", "x"],
      ["service.name", "!=", "y"],
      ["a b", "=~", "z"],
    ]);
    expect(matchersOf('{"__name__"="up"}')).toEqual([["__name__", "=", "up"]]);
  });

  it("takes a trailing comma and whitespace anywhere between tokens", () => {
    expect(matchersOf('up{job="a",}')).toEqual([
      ["__name__", "=", "up"],
      ["job", "=", "a"],
    ]);
    expect(matchersOf(' \n up \t{ job\n=~ "a" ,\r\n x != "b" , } \n')).toEqual([
      ["__name__", "=", "up"],
      ["job", "=~", "a"],
      ["x", "!=", "b"],
    ]);
  });

  it("reads label values in every kind of string literal, with their escapes", () => {
    const text = "{a=\"x\\\"y\\n\\u00e9\\xc3\\xa9\\101\\U0001F600\", b='\\'', c=`\\d+\\.`}";
    expect(matchersOf(text)).toEqual([
      ["a", "=", 'x"y\néé' + "A😀"],
      ["b", "=", "'"],
      ["c", "=", "\\d+\\."],
    ]);
  });

  it("reads label names that are keywords elsewhere in PromQL", () => {
    expect(matchersOf('sum{by="a", on="b", offset="c"}').map(([name]) => name)).toEqual([
      "__name__",
      "by",
      "on",
      "offset",
    ]);
  });

  it("keeps matchers of the same label and several quoted names, all of which must hold", () => {
    expect(matchersOf('{a=~"x.*", a!="xy", "m1", "m2"}')).toHaveLength(4);
  });

  it("gives matchers as plain data", () => {
    const matcher: LabelMatcher = parseSeriesSelector('{a="b"}').matchers[0]!;
    expect(matcher).toEqual({ name: "a", operator: "=", value: "b" });
  });

  describe("refuses", () => {
    it.each([
      ["", 0, 'unexpected end of the selector at position 0: expected a metric name or "{"'],
      ["   ", 3, 'unexpected end of the selector at position 3: expected a metric name or "{"'],
      ['up{job="a",}}', 12, 'unexpected "}" at position 12: expected the end of the selector'],
      ['{job="a", }x', 11, 'unexpected identifier "x" at position 11: expected the end of the selector'],
      ['{job="node",=~"x"}', 12, 'unexpected "=~" at position 12: expected a label name'],
      ["{,}", 1, 'unexpected "," at position 1: expected a label name'],
      ['{job="a",,}', 9, 'unexpected "," at position 9: expected a label name'],
      ['{job="node" mode="x"}', 12, 'unexpected identifier "mode" at position 12: expected "," or "}"'],
      ['{job="node"', 11, 'unexpected end of the selector at position 11: expected "," or "}"'],
      ["{job}", 4, 'unexpected "}" at position 4: expected one of =, !=, =~, !~'],
      ['{job=="a"}', 5, 'unexpected "=" at position 5: expected a quoted string'],
      ["{job=node}", 5, 'unexpected identifier "node" at position 5: expected a quoted string'],
      ["{job=5}", 5, 'unexpected "5" at position 5: expected a quoted string'],
      ['{job!"a"}', 4, 'unexpected "!" at position 4: expected one of =, !=, =~, !~'],
      ['{job<"a"}', 4, 'unexpected "<" at position 4: expected one of =, !=, =~, !~'],
      ['{"a" "b"}', 5, 'unexpected string "b" at position 5: expected "," or "}"'],
      ["up[5m]", 2, 'unexpected "[" at position 2: expected "{" or the end of the selector'],
      ['up{a="b"}[5m]', 9, 'unexpected "[" at position 9: expected the end of the selector'],
      ["up offset 5m", 3, 'unexpected identifier "offset" at position 3: expected "{" or the end of the selector'],
      ["rate(up[5m])", 4, 'unexpected "(" at position 4: expected "{" or the end of the selector'],
      ['"up"', 0, 'unexpected string "up" at position 0: expected a metric name or "{"'],
      ["1up", 0, 'unexpected "1" at position 0: expected a metric name or "{"'],
      ["cpu.usage", 3, 'unexpected "." at position 3: expected "{" or the end of the selector'],
      [
        '{a:b="c"}',
        2,
        'a colon in the label name "a:b" at position 2: expected letters, digits and underscores, or the name quoted',
      ],
      ['{""="c"}', 1, "an empty label name at position 1"],
      [
        '{job="a\\qb"}',
        7,
        'an unknown escape sequence \\q at position 7: expected one of \\a \\b \\f \\n \\r \\t \\v \\\\ \\" \\xHH \\ooo \\uHHHH \\UHHHHHHHH',
      ],
      [
        '{job="ab}',
        9,
        'an unterminated string at position 9: expected the closing " of the string that opens at position 5',
      ],
    ])("%j at position %i", (text, position, message) => {
      expect(problemOf(text)).toEqual({ position, message });
    });

    it("a metric name given both before the braces and inside them, as Prometheus does", () => {
      expect(problemOf('up{job="a", __name__="down"}')).toEqual({
        position: 12,
        message:
          "a second metric name at position 12: expected none inside the braces, as up before them is the metric name",
      });
      expect(problemOf('up{"down"}').position).toBe(3);
      expect(problemOf('up{"__name__"=~"d.*"}').position).toBe(3);
    });

    it.each([
      ["{}", 0],
      [' {job=~".*"}', 1],
      ['{job=""}', 0],
      ['{job!="x", mode=~"a|"}', 0],
      ['{__name__=~".*"}', 0],
      ['{job!~"a+"}', 0],
      ['{""}', 0],
    ])("%j, whose every matcher matches the empty string", (text, position) => {
      expect(problemOf(text)).toEqual({
        position,
        message: `every matcher matches the empty string at position ${position}: expected at least one that does not, such as a metric name (a label a series lacks reads as empty)`,
      });
    });

    it("a selector with any matcher that does not match the empty string is taken", () => {
      expect(matchersOf('{job=~".*", mode="x"}')).toHaveLength(2);
      expect(matchersOf('{job!=""}')).toHaveLength(1);
      expect(matchersOf('{job=~".+"}')).toHaveLength(1);
      expect(matchersOf('{job!~""}')).toHaveLength(1);
    });

    it("an invalid regex, naming the matcher and RE2's reason, at the regex", () => {
      expect(problemOf('{job="a", mode=~"(idle"}')).toEqual({
        position: 16,
        message: 'an invalid regex in mode=~"(idle" at position 16: missing closing )',
      });
      expect(problemOf("{mode !~ '[z-a]'}")).toEqual({
        position: 9,
        message: "an invalid regex in mode !~ '[z-a]' at position 9: invalid character class range (z-a)",
      });
      expect(problemOf('{a=~"a)|(b"}').message).toContain("unexpected )");
    });

    it("but takes in = and != what would be a bad regex", () => {
      expect(matchersOf('{a="(", b!="["}')).toHaveLength(2);
    });
  });

  describe("bounds", () => {
    it(`takes ${MAX_SELECTOR_LENGTH} characters and refuses one more, at the first one too many`, () => {
      const name = "m".repeat(MAX_SELECTOR_LENGTH);
      expect(matchersOf(name)).toEqual([["__name__", "=", name]]);
      expect(problemOf(`${name}x`)).toEqual({
        position: MAX_SELECTOR_LENGTH,
        message: `the selector goes on at position ${MAX_SELECTOR_LENGTH}: expected at most ${MAX_SELECTOR_LENGTH} characters`,
      });
    });

    it(`takes ${MAX_MATCHERS_PER_SELECTOR} matchers, the metric name included, and refuses one more at its start`, () => {
      const labels = Array.from({ length: MAX_MATCHERS_PER_SELECTOR - 1 }, (_, index) => `l${index}="v"`);
      expect(matchersOf(`up{${labels.join(",")}}`)).toHaveLength(MAX_MATCHERS_PER_SELECTOR);
      const tooMany = `up{${labels.join(",")},extra="v"}`;
      expect(problemOf(tooMany)).toEqual({
        position: tooMany.indexOf("extra"),
        message: `one matcher too many at position ${tooMany.indexOf("extra")}: expected at most ${MAX_MATCHERS_PER_SELECTOR} in a selector`,
      });
    });

    it(`takes a regex of ${MAX_REGEX_LENGTH} characters and refuses a longer one at its string`, () => {
      const regex = "a".repeat(MAX_REGEX_LENGTH);
      expect(matchersOf(`{x=~"${regex}"}`)).toEqual([["x", "=~", regex]]);
      expect(problemOf(`{x!~"${regex}b"}`)).toEqual({
        position: 4,
        message: `a regex of ${MAX_REGEX_LENGTH + 1} characters at position 4: expected at most ${MAX_REGEX_LENGTH}`,
      });
      expect(matchersOf(`{x="${regex}b"}`)).toHaveLength(1);
    });

    it("counts a regex's length after its escapes", () => {
      const escaped = "\\x61".repeat(200);
      expect(escaped.length).toBeGreaterThan(MAX_REGEX_LENGTH);
      expect(matchersOf(`{x=~"${escaped}"}`)[0]![2]).toBe("a".repeat(200));
    });
  });
});
