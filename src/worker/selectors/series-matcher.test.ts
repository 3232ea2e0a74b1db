import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LabelMatcher, MatchOperator } from "./label-matcher";
import { parseSeriesSelector, SelectorSyntaxError, type SeriesSelector } from "./selector-syntax";
import { compileSelectors, metricCouldMatch, nameDecides, type SeriesView } from "./series-matcher";

function series(metric: string, labels?: Record<string, string>, resourceId = "host-1"): SeriesView {
  return { metric, resourceId, labels: labels === undefined ? undefined : Object.entries(labels) };
}

function matching(selectors: string[], candidates: SeriesView[]): SeriesView[] {
  return candidates.filter(compileSelectors(selectors.map(parseSeriesSelector)));
}

describe("compileSelectors", () => {
  const idle = series("node_cpu_seconds_total", { mode: "idle", job: "node" });
  const user = series("node_cpu_seconds_total", { mode: "user", job: "node" });
  const memory = series("node_memory_bytes", { job: "node" });
  const bare = series("cpu.usage_idle", undefined, "web-1");

  it("matches by metric name and labels", () => {
    expect(matching(['node_cpu_seconds_total{mode!="idle"}'], [idle, user, memory, bare])).toEqual([user]);
    expect(matching(['{__name__=~"node_.*",job="node"}'], [idle, user, memory, bare])).toEqual([idle, user, memory]);
  });

  it("reads a label the series lacks, or every label of a series without labels, as empty", () => {
    expect(matching(['{job="node", mode=""}'], [idle, memory])).toEqual([memory]);
    expect(matching(['{__name__=~".+", job!="node"}'], [idle, bare])).toEqual([bare]);
  });

  it("matches the resourceId as __resource__, also for data without labels", () => {
    expect(matching(['{"cpu.usage_idle", __resource__=~"web-.*"}'], [bare, series("cpu.usage_idle")])).toEqual([bare]);
  });

  it("reads __name__ and __resource__ from the datum, not from labels of those names", () => {
    const odd = series("real", { __name__: "fake", __resource__: "fake" }, "real-host");
    expect(matching(['{__name__="real", __resource__="real-host"}'], [odd])).toEqual([odd]);
    expect(matching(['{__name__="fake"}', '{__resource__="fake"}'], [odd])).toEqual([]);
  });

  it("matches when any selector matches", () => {
    expect(matching(["node_memory_bytes", '{"cpu.usage_idle"}'], [idle, memory, bare])).toEqual([memory, bare]);
  });

  it("requires every matcher of a selector, several of one label included", () => {
    const web = (host: string) => series("up", { host });
    expect(matching(['up{host=~"web-.*", host!="web-2"}'], [web("web-1"), web("web-2"), web("db-1")])).toEqual([
      web("web-1"),
    ]);
  });

  it("reads quoted label names", () => {
    const otel = series("http.server.duration", { "service.name": "checkout" });
    expect(matching(['{"http.server.duration", "service.name"="checkout"}'], [otel])).toEqual([otel]);
  });

  it("matches nothing without selectors", () => {
    expect(matching([], [idle])).toEqual([]);
  });
});

describe("metricCouldMatch", () => {
  const selectors = ['node_cpu_seconds_total{mode!="idle"}', '{__name__=~"go_.*", job="api"}'].map(parseSeriesSelector);

  it("is false only when every selector refuses the metric name", () => {
    expect(metricCouldMatch(selectors, "node_cpu_seconds_total")).toBe(true);
    expect(metricCouldMatch(selectors, "go_goroutines")).toBe(true);
    expect(metricCouldMatch(selectors, "node_memory_bytes")).toBe(false);
  });

  it("is true for every metric when a selector does not restrict the name", () => {
    expect(metricCouldMatch([parseSeriesSelector('{job="api"}')], "anything")).toBe(true);
    expect(metricCouldMatch([parseSeriesSelector('{__name__!="up", job="api"}')], "up")).toBe(false);
  });
});

describe("nameDecides", () => {
  const decides = (...selectors: string[]) => nameDecides(selectors.map(parseSeriesSelector));

  it("is true only when every selector matches on the metric name alone", () => {
    expect(decides("up", '{__name__=~"node_.+"}', '{"http.server.duration"}')).toBe(true);
    expect(decides("up", 'node_cpu_seconds_total{mode="idle"}')).toBe(false);
    expect(decides('{__resource__=~"vm.*"}')).toBe(false);
  });

  it("agrees with the selectors: where the name alone decides, a series matches exactly when its metric could", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("up", "node_load1", "go_goroutines"),
        fc.dictionary(fc.constantFrom("job", "mode", "instance"), fc.string({ maxLength: 3 })),
        fc.constantFrom('{__name__=~"node_.+"}', "up", '{__name__=~".+", __name__!="up"}', '{__name__=~"go_.*|up"}'),
        (metric, labels, text) => {
          const selectors = [parseSeriesSelector(text)];
          expect(nameDecides(selectors)).toBe(true);
          expect(compileSelectors(selectors)(series(metric, labels))).toBe(metricCouldMatch(selectors, metric));
        },
      ),
    );
  });
});

/*
 * Properties: a random label set and a random selector built from it match exactly when an
 * independent evaluator says so. The evaluator runs JavaScript's RegExp on the patterns this test
 * generates, a safe subset on which it and RE2 agree; it is the oracle only.
 */

const alphabet = ["a", "b", "c", "-", ".", "é", "😀", "\n", '"', "'", "`", "\\"];
const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 4 }).map((units) => units.join(""));
const labelNames = ["job", "mode", "instance", "my.label", "le"];
const metricNames = ["up", "node_cpu", "job:rate:5m", "cpu.usage_idle", "a"];
const values = ["", "a", "ab", "web-1", "x\ny", "é", "😀"];
const value = fc.oneof(fc.constantFrom(...values), text);

const seriesView: fc.Arbitrary<SeriesView> = fc.record({
  metric: fc.constantFrom(...metricNames),
  resourceId: fc.oneof(fc.constantFrom("web-1", "db-1", ""), text),
  labels: fc.option(fc.uniqueArray(fc.tuple(fc.constantFrom(...labelNames), value), { selector: ([name]) => name }), {
    nil: undefined,
  }),
});

const escapedForRegex = (character: string) => (character === "." || character === "\\" ? `\\${character}` : character);

/** A regex of the safe subset: literals, any character, classes, groups, alternations, repetitions. */
const regex: fc.Arbitrary<string> = fc.letrec<{ regex: string }>((tie) => ({
  regex: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text.map((literal) => [...literal].map(escapedForRegex).join("")),
    fc.constantFrom(".*", ".+", ".", "[ab]", "[^a]", "[a-c]", "[😀é]", "(?:)"),
    fc.tuple(tie("regex"), tie("regex")).map(([left, right]) => `${left}${right}`),
    fc.array(tie("regex"), { minLength: 2, maxLength: 3 }).map((branches) => `(?:${branches.join("|")})`),
    fc.tuple(tie("regex"), fc.constantFrom("*", "+", "?")).map(([inner, repeat]) => `(?:${inner})${repeat}`),
  ),
})).regex;

const matcher: fc.Arbitrary<LabelMatcher> = fc.oneof(
  fc.record({
    name: fc.constantFrom(...labelNames, "__name__", "__resource__", "absent"),
    operator: fc.constantFrom<MatchOperator>("=", "!="),
    value: fc.oneof(value, fc.constantFrom(...metricNames)),
  }),
  fc.record({
    name: fc.constantFrom(...labelNames, "__name__", "__resource__", "absent"),
    operator: fc.constantFrom<MatchOperator>("=~", "!~"),
    value: regex,
  }),
);

/** The value a selector sees, looked up the obvious way. */
function oracleValue(view: SeriesView, name: string): string {
  if (name === "__name__") return view.metric;
  if (name === "__resource__") return view.resourceId;
  return view.labels?.find(([label]) => label === name)?.[1] ?? "";
}

function oracleTest({ operator, value }: LabelMatcher, candidate: string): boolean {
  switch (operator) {
    case "=":
      return candidate === value;
    case "!=":
      return candidate !== value;
    case "=~":
      return new RegExp(`^(?:${value})$`, "su").test(candidate);
    case "!~":
      return !new RegExp(`^(?:${value})$`, "su").test(candidate);
  }
}

function oracleMatches(matchers: readonly LabelMatcher[], view: SeriesView): boolean {
  return matchers.every((each) => oracleTest(each, oracleValue(view, each.name)));
}

/** How a selector's text may be written: each choice is one the grammar allows. */
interface Spelling {
  nameOutside: boolean;
  quoteIdentifiers: boolean[];
  quotes: ('"' | "'" | "`")[];
  escapes: number[];
  space: string;
  trailingComma: boolean;
}

const spelling: fc.Arbitrary<Spelling> = fc.record({
  nameOutside: fc.boolean(),
  quoteIdentifiers: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  quotes: fc.array(fc.constantFrom<'"' | "'" | "`">('"', "'", "`"), { minLength: 8, maxLength: 8 }),
  escapes: fc.array(fc.nat(5), { minLength: 8, maxLength: 8 }),
  space: fc.constantFrom("", " ", "\n\t "),
  trailingComma: fc.boolean(),
});

/** A character written as an escape of one kind or another. */
function escaped(character: string, kind: number): string {
  const codePoint = character.codePointAt(0)!;
  const bytes = [...new TextEncoder().encode(character)];
  switch (kind) {
    case 0:
      return bytes.map((byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join("");
    case 1:
      return bytes.map((byte) => `\\${byte.toString(8).padStart(3, "0")}`).join("");
    case 2:
      return codePoint > 0xffff ? escaped(character, 3) : `\\u${codePoint.toString(16).padStart(4, "0")}`;
    case 3:
      return `\\U${codePoint.toString(16).padStart(8, "0")}`;
    default:
      return character === "\n" ? "\\n" : character;
  }
}

function literal(value: string, index: number, how: Spelling): string {
  const quote = how.quotes[index % 8]!;
  if (quote === "`" && !value.includes("`")) return `\`${value}\``;
  const delimiter = quote === "'" ? "'" : '"';
  const kind = how.escapes[index % 8]!;
  const body = [...value].map((character) =>
    character === "\\" || character === delimiter ? `\\${character}` : escaped(character, kind),
  );
  return `${delimiter}${body.join("")}${delimiter}`;
}

const identifier = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const metricIdentifier = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/**
 * The selector's text, the matchers the parser should read from it, in its order, and whether the
 * metric name stands before the braces (so that a `__name__` matcher inside is one name too many).
 */
function written(
  metric: string | undefined,
  matchers: LabelMatcher[],
  how: Spelling,
): [string, LabelMatcher[], boolean] {
  const { space } = how;
  const items = matchers.map(({ name, operator, value }, index) => {
    const label = identifier.test(name) && !how.quoteIdentifiers[index % 8] ? name : literal(name, index + 1, how);
    return `${label}${space}${operator}${space}${literal(value, index, how)}`;
  });
  const nameMatcher: LabelMatcher[] = metric === undefined ? [] : [{ name: "__name__", operator: "=", value: metric }];
  if (metric !== undefined && how.nameOutside && metricIdentifier.test(metric)) {
    const braces = items.length === 0 && how.trailingComma ? "" : `{${items.join(",")}}`;
    return [`${space}${metric}${space}${braces}`, [...nameMatcher, ...matchers], true];
  }
  if (metric !== undefined) items.unshift(literal(metric, 7, how));
  const comma = how.trailingComma && items.length > 0 ? "," : "";
  return [`{${space}${items.join(`${space},${space}`)}${comma}${space}}`, [...nameMatcher, ...matchers], false];
}

const labelSets = fc.array(seriesView, { minLength: 1, maxLength: 8 });
const selectorParts = fc.tuple(
  fc.option(fc.constantFrom(...metricNames), { nil: undefined }),
  fc.array(matcher, { maxLength: 5 }),
  spelling,
);

/** The selector written from its parts, parsed; undefined when the parser refuses it. */
function parsedOrRefused(text: string): SeriesSelector | undefined {
  try {
    return parseSeriesSelector(text);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return undefined;
    throw error;
  }
}

describe("against an independent evaluator", () => {
  it("reads back the matchers of any way of writing a selector, and refuses exactly the ones PromQL refuses", () => {
    fc.assert(
      fc.property(selectorParts, ([metric, matchers, how]) => {
        const [text, expected, nameOutside] = written(metric, matchers, how);
        const parsed = parsedOrRefused(text);
        const matchesEmpty = oracleMatches(expected, { metric: "", resourceId: "", labels: undefined });
        const nameTwice = nameOutside && matchers.some(({ name }) => name === "__name__");
        expect(parsed?.matchers, text).toEqual(matchesEmpty || nameTwice ? undefined : expected);
      }),
      { numRuns: 500 },
    );
  });

  it("matches a series exactly when the evaluator says so", () => {
    fc.assert(
      fc.property(fc.array(selectorParts, { minLength: 1, maxLength: 3 }), labelSets, (parts, views) => {
        const selectors = parts
          .map(([metric, matchers, how]) => parsedOrRefused(written(metric, matchers, how)[0]))
          .filter((selector) => selector !== undefined);
        const predicate = compileSelectors(selectors);
        for (const view of views) {
          const expected = selectors.some((selector) => oracleMatches(selector.matchers, view));
          expect(predicate(view), JSON.stringify({ selectors: selectors.map((s) => s.text), view })).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("says a metric could match exactly when every name matcher of some selector accepts it", () => {
    fc.assert(
      fc.property(
        fc.array(selectorParts, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...metricNames),
        (parts, metric) => {
          const selectors = parts
            .map(([name, matchers, how]) => parsedOrRefused(written(name, matchers, how)[0]))
            .filter((selector) => selector !== undefined);
          const expected = selectors.some((selector) =>
            selector.matchers.every((each) => each.name !== "__name__" || oracleTest(each, metric)),
          );
          expect(metricCouldMatch(selectors, metric)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
