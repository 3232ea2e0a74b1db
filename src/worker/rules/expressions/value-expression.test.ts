import { describe, expect, it } from "vitest";
import { type AggregateCall, parseValueExpression, type ValueExpression } from "./value-expression";

function expression(text: string): ValueExpression {
  const parsed = parseValueExpression(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** A window's aggregates, as numbers easy to tell apart. */
const window: Record<string, number> = {
  AVG: 25,
  SUM: 100,
  COUNT: 4,
  MIN: 10,
  MAX: 40,
  "PERCENTILE:95": 38,
  "PERCENTILE:50": 20,
};
const aggregate = (call: AggregateCall) =>
  window[call.fn === "PERCENTILE" ? `PERCENTILE:${call.percentile}` : call.fn] ?? Number.NaN;

function value(text: string, metric = 7): number {
  return expression(text).evaluate(metric, aggregate);
}

describe("parseValueExpression", () => {
  it("passes METRIC through", () => {
    const parsed = expression("METRIC");
    expect(parsed.evaluate(7, aggregate)).toBe(7);
    expect(parsed.aggregates).toEqual([]);
    expect(parsed.usesBareMetric).toBe(true);
  });

  it("computes the originals' SUM(METRIC)/COUNT(METRIC)", () => {
    const parsed = expression("SUM(METRIC)/COUNT(METRIC)");
    expect(parsed.evaluate(7, aggregate)).toBe(25);
    expect(parsed.aggregates).toEqual([{ fn: "SUM" }, { fn: "COUNT" }]);
    expect(parsed.usesBareMetric).toBe(false);
  });

  it.each([
    ["AVG(METRIC)", 25],
    ["SUM(METRIC)", 100],
    ["COUNT(METRIC)", 4],
    ["MIN(METRIC)", 10],
    ["MAX(METRIC)", 40],
    ["PERCENTILE(METRIC, 95)", 38],
    ["PERCENTILE( METRIC ,50 )", 20],
    ["42", 42],
    ["0.5", 0.5],
  ])("evaluates %s", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it("applies the usual precedence, left to right within one", () => {
    expect(value("1 + 2 * 3")).toBe(7);
    expect(value("(1 + 2) * 3")).toBe(9);
    expect(value("10 - 4 - 3")).toBe(3);
    expect(value("100 / 10 / 5")).toBe(2);
    expect(value("MAX(METRIC) - MIN(METRIC) / 2")).toBe(35);
    expect(value("(MAX(METRIC) - MIN(METRIC)) / 2")).toBe(15);
    expect(value("2 * METRIC + 1", 3)).toBe(7);
  });

  it("takes unary minus", () => {
    expect(value("-METRIC", 3)).toBe(-3);
    expect(value("--3")).toBe(3);
    expect(value("2 * -3")).toBe(-6);
    expect(value("2 - -3")).toBe(5);
    expect(value("-(1 + 2) * 2")).toBe(-6);
    expect(value("-2 * 3 + 10")).toBe(4);
  });

  it("takes × and ÷ (and the minus sign −) as synonyms", () => {
    expect(value("SUM(METRIC) ÷ COUNT(METRIC)")).toBe(25);
    expect(value("2 × 3 − 1")).toBe(5);
  });

  it("divides by zero as IEEE does", () => {
    expect(value("1 / 0")).toBe(Number.POSITIVE_INFINITY);
    expect(value("-1 / 0")).toBe(Number.NEGATIVE_INFINITY);
    expect(value("0 / 0")).toBeNaN();
    expect(value("METRIC / COUNT(METRIC)", 0)).toBe(0);
  });

  it("lists each distinct aggregate once, and passes those very objects to the callback", () => {
    const parsed = expression(
      "SUM(METRIC) / COUNT(METRIC) + SUM(METRIC) + PERCENTILE(METRIC, 95) - PERCENTILE(METRIC, 95.0) + PERCENTILE(METRIC, 50)",
    );
    expect(parsed.aggregates).toEqual([
      { fn: "SUM" },
      { fn: "COUNT" },
      { fn: "PERCENTILE", percentile: 95 },
      { fn: "PERCENTILE", percentile: 50 },
    ]);
    const seen = new Set<AggregateCall>();
    parsed.evaluate(0, (call) => {
      seen.add(call);
      return aggregate(call);
    });
    expect([...seen].every((call) => parsed.aggregates.includes(call))).toBe(true);
    expect(seen.size).toBe(4);
  });

  it("tells whether METRIC appears outside an aggregate", () => {
    expect(expression("METRIC - AVG(METRIC)").usesBareMetric).toBe(true);
    expect(expression("AVG(METRIC) * 2").usesBareMetric).toBe(false);
    expect(expression("3").usesBareMetric).toBe(false);
    expect(value("METRIC - AVG(METRIC)", 30)).toBe(5);
  });

  it("accepts the percentiles 0 and 100", () => {
    expect(expression("PERCENTILE(METRIC, 0) + PERCENTILE(METRIC, 100)").aggregates).toEqual([
      { fn: "PERCENTILE", percentile: 0 },
      { fn: "PERCENTILE", percentile: 100 },
    ]);
  });

  const vocabulary = "the value may use METRIC, numbers and AVG, SUM, COUNT, MIN, MAX, PERCENTILE(METRIC, p).";

  it.each([
    ["ResponseTime", 1, `Unknown name "ResponseTime" at position 1; ${vocabulary}`],
    ["2 * metric", 5, `Unknown name "metric" at position 5; ${vocabulary}`],
    ["MEDIAN(METRIC)", 1, `Unknown function "MEDIAN" at position 1; ${vocabulary}`],
    ["1 + avg(METRIC)", 5, `Unknown function "avg" at position 5; ${vocabulary}`],
    [
      "",
      1,
      "The value does not parse at position 1: it is empty; expected an expression such as METRIC or SUM(METRIC)/COUNT(METRIC).",
    ],
    [
      " \t",
      1,
      "The value does not parse at position 1: it is empty; expected an expression such as METRIC or SUM(METRIC)/COUNT(METRIC).",
    ],
    ["SUM(5)", 5, 'The value does not parse at position 5: the argument of SUM must be METRIC, found "5".'],
    [
      "AVG(ResponseTime)",
      5,
      'The value does not parse at position 5: the argument of AVG must be METRIC, found "ResponseTime".',
    ],
    ["MAX()", 5, 'The value does not parse at position 5: the argument of MAX must be METRIC, found ")".'],
    ["AVG(METRIC * 2)", 12, 'The value does not parse at position 12: expected ")" after AVG(METRIC, found "*".'],
    ["SUM", 4, 'The value does not parse at position 4: expected "(" after SUM, found the end of the value.'],
    [
      "SUM(METRIC",
      11,
      'The value does not parse at position 11: expected ")" after SUM(METRIC, found the end of the value.',
    ],
    [
      "PERCENTILE(METRIC)",
      18,
      'The value does not parse at position 18: expected "," and the percentile after PERCENTILE(METRIC, found ")".',
    ],
    [
      "PERCENTILE(METRIC, METRIC)",
      20,
      'The value does not parse at position 20: expected the percentile, a number from 0 to 100, found "METRIC".',
    ],
    ["PERCENTILE(METRIC, 150)", 20, "The percentile at position 20 must be from 0 to 100, found 150."],
    ["PERCENTILE(METRIC, 100.5)", 20, "The percentile at position 20 must be from 0 to 100, found 100.5."],
    ["PERCENTILE(METRIC, -5)", 20, "The percentile at position 20 must be from 0 to 100, found -5."],
    [
      "PERCENTILE(METRIC, 95",
      22,
      'The value does not parse at position 22: expected ")" after PERCENTILE(METRIC, p, found the end of the value.',
    ],
    [
      "(SUM(METRIC) + 1",
      17,
      'The value does not parse at position 17: expected an operator (+, -, *, /) or ")", found the end of the value.',
    ],
    [
      "SUM(METRIC) + 1)",
      16,
      'The value does not parse at position 16: expected an operator (+, -, *, /) or the end of the value, found ")".',
    ],
    [
      "METRIC METRIC",
      8,
      'The value does not parse at position 8: expected an operator (+, -, *, /) or the end of the value, found "METRIC".',
    ],
    [
      "METRIC +",
      9,
      'The value does not parse at position 9: expected a number, METRIC, a function, "-" or "(", found the end of the value.',
    ],
    [
      "METRIC ^ 2",
      8,
      'The value does not parse at position 8: expected an operator (+, -, *, /) or the end of the value, found "^".',
    ],
    [
      "+METRIC",
      1,
      'The value does not parse at position 1: expected a number, METRIC, a function, "-" or "(", found "+".',
    ],
  ])("locates the problem of %j at position %i", (text, position, message) => {
    expect(parseValueExpression(text)).toEqual({ ok: false, position, message });
  });

  it("refuses nesting deeper than 100 levels instead of overflowing the stack", () => {
    expect(parseValueExpression(`${"(".repeat(100)}METRIC${")".repeat(100)}`).ok).toBe(true);
    expect(parseValueExpression(`${"(".repeat(10_000)}METRIC${")".repeat(10_000)}`)).toMatchObject({
      ok: false,
      position: 101,
    });
    expect(parseValueExpression(`${"-".repeat(10_000)}METRIC`)).toMatchObject({ ok: false, position: 101 });
  });

  it("evaluates an expression of a hundred thousand operators without nesting a call per operator", () => {
    const long = Array.from({ length: 100_000 }, (_, index) => (index % 2 === 0 ? "METRIC" : "1")).join("+");
    expect(value(long, 2)).toBe(150_000);
    expect(value(`${"2*".repeat(50_000)}1`, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it("reads a number of many digits as the nearest double", () => {
    expect(value(`${"9".repeat(400)}`)).toBe(Number.POSITIVE_INFINITY);
    expect(value(`0.${"0".repeat(400)}1`)).toBe(0);
  });
});
