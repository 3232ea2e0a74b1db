import { describe, expect, it } from "vitest";
import { type Condition, parseCondition } from "./condition";

function condition(text: string): Condition {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** The metrics of `metrics` for which the condition holds. */
function holding(text: string, metrics: number[]): number[] {
  const parsed = condition(text);
  return metrics.filter((metric) => parsed.holds(metric));
}

describe("parseCondition", () => {
  it.each([
    ["METRIC > 5", [6]],
    ["METRIC >= 5", [5, 6]],
    ["METRIC < 5", [4]],
    ["METRIC <= 5", [4, 5]],
    ["METRIC = 5", [5]],
    ["METRIC <> 5", [4, 6]],
  ])("compares with each operator: %s", (text, expected) => {
    expect(holding(text, [4, 5, 6])).toEqual(expected);
  });

  it("reads the originals' condition", () => {
    expect(holding("METRIC > 2500.0 || METRIC < 10", [5, 10, 100, 2500, 2500.5])).toEqual([5, 2500.5]);
  });

  it("takes a number on the left", () => {
    expect(holding("2500 < METRIC", [2500, 2501])).toEqual([2501]);
    expect(holding("3 > 2", [0])).toEqual([0]);
    expect(holding("METRIC = METRIC", [1, Number.NaN])).toEqual([1]);
  });

  it("reads decimals and negative numbers", () => {
    expect(holding("METRIC >= 0.25", [0.2, 0.25, 0.3])).toEqual([0.25, 0.3]);
    expect(holding("METRIC > -1.5", [-2, -1.5, -1])).toEqual([-1]);
    expect(holding("-1.5 = METRIC", [-1.5, 1.5])).toEqual([-1.5]);
    expect(holding("METRIC > - 2", [-3, -1])).toEqual([-1]);
  });

  it("binds && tighter than ||", () => {
    // 1 = 1 || (METRIC > 5 && METRIC < 3): always; (1 = 1 || METRIC > 5) && METRIC < 3 would not be.
    expect(holding("1 = 1 || METRIC > 5 && METRIC < 3", [0, 4, 10])).toEqual([0, 4, 10]);
    expect(holding("METRIC > 5 && METRIC < 3 || 1 = 1", [0, 4, 10])).toEqual([0, 4, 10]);
  });

  it("groups with parentheses", () => {
    expect(holding("(1 = 1 || METRIC > 5) && METRIC < 3", [0, 4, 10])).toEqual([0]);
    expect(holding("((METRIC > 1))", [0, 2])).toEqual([2]);
  });

  it("negates with !, which applies to the comparison or group after it", () => {
    expect(holding("!METRIC > 5", [4, 6])).toEqual([4]);
    expect(holding("!!METRIC > 5", [4, 6])).toEqual([6]);
    expect(holding("!(METRIC > 5 || METRIC < 2) && METRIC <> 3", [1, 3, 4, 6])).toEqual([4]);
  });

  it("allows any whitespace, or none", () => {
    expect(holding("METRIC>5||METRIC<=1", [1, 3, 6])).toEqual([1, 6]);
    expect(holding("\t METRIC \n>\r\n 5 ", [4, 6])).toEqual([6]);
  });

  it("compares a NaN metric like IEEE: only <> holds", () => {
    const nan = Number.NaN;
    for (const op of [">", ">=", "<", "<=", "="]) expect(condition(`METRIC ${op} 1`).holds(nan)).toBe(false);
    expect(condition("METRIC <> 1").holds(nan)).toBe(true);
    expect(condition("!METRIC > 1").holds(nan)).toBe(true);
  });

  it("compares infinities", () => {
    expect(holding("METRIC > 1000000", [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])).toEqual([
      Number.POSITIVE_INFINITY,
    ]);
  });

  it.each([
    ["", 1, "The condition does not parse at position 1: it is empty; expected a comparison such as METRIC > 2500."],
    ["   ", 1, "The condition does not parse at position 1: it is empty; expected a comparison such as METRIC > 2500."],
    ["METRIC > && 5", 10, 'The condition does not parse at position 10: expected a number or METRIC, found "&&".'],
    [
      "METRIC > 5 6",
      12,
      'The condition does not parse at position 12: expected "&&", "||" or the end of the condition, found "6".',
    ],
    [
      "METRIC > 5 abc",
      12,
      'The condition does not parse at position 12: expected "&&", "||" or the end of the condition, found "abc".',
    ],
    [
      "METRIC >",
      9,
      "The condition does not parse at position 9: expected a number or METRIC, found the end of the condition.",
    ],
    ["> 5", 1, 'The condition does not parse at position 1: expected a number, METRIC, "!" or "(", found ">".'],
    [
      "METRIC 5",
      8,
      'The condition does not parse at position 8: expected a comparison (>, >=, <, <=, = or <>), found "5".',
    ],
    [
      "METRIC > 5 &&",
      14,
      'The condition does not parse at position 14: expected a number, METRIC, "!" or "(", found the end of the condition.',
    ],
    [
      "ResponseTime > 5",
      1,
      'The condition does not parse at position 1: unknown name "ResponseTime"; a condition compares METRIC with numbers.',
    ],
    [
      "metric > 5",
      1,
      'The condition does not parse at position 1: unknown name "metric"; a condition compares METRIC with numbers.',
    ],
    [
      "5 < Metric",
      5,
      'The condition does not parse at position 5: unknown name "Metric"; a condition compares METRIC with numbers.',
    ],
    [
      "(METRIC > 5",
      12,
      'The condition does not parse at position 12: expected "&&", "||" or ")", found the end of the condition.',
    ],
    [
      "METRIC > 5)",
      11,
      'The condition does not parse at position 11: expected "&&", "||" or the end of the condition, found ")".',
    ],
    ["()", 2, 'The condition does not parse at position 2: expected a number, METRIC, "!" or "(", found ")".'],
    ["=", 1, 'The condition does not parse at position 1: expected a number, METRIC, "!" or "(", found "=".'],
    ["METRIC == 5", 9, 'The condition does not parse at position 9: expected a number or METRIC, found "=".'],
    ["METRIC = = 5", 10, 'The condition does not parse at position 10: expected a number or METRIC, found "=".'],
    [
      "METRIC != 5",
      8,
      'The condition does not parse at position 8: expected a comparison (>, >=, <, <=, = or <>), found "!".',
    ],
    [
      "METRIC > 5 & METRIC < 9",
      12,
      'The condition does not parse at position 12: expected "&&", "||" or the end of the condition, found "&".',
    ],
    [
      "METRIC > 2500. ",
      14,
      'The condition does not parse at position 14: expected "&&", "||" or the end of the condition, found ".".',
    ],
    [
      "METRIC > -",
      11,
      'The condition does not parse at position 11: expected a number after "-", found the end of the condition.',
    ],
    [
      "METRIC > 1e3",
      11,
      'The condition does not parse at position 11: expected "&&", "||" or the end of the condition, found "e3".',
    ],
    [
      "METRIC ≥ 5",
      8,
      'The condition does not parse at position 8: expected a comparison (>, >=, <, <=, = or <>), found "≥".',
    ],
  ])("locates the problem of %j at position %i", (text, position, message) => {
    expect(parseCondition(text)).toEqual({ ok: false, position, message });
  });

  it("counts positions in characters, not UTF-16 units", () => {
    expect(parseCondition("😀 METRIC > 5")).toMatchObject({ ok: false, position: 1 });
    expect(parseCondition("METRIC > 5 😀")).toMatchObject({ ok: false, position: 12 });
    expect(parseCondition("METRIC >\u00a05 ||😀")).toMatchObject({ ok: false, position: 14 });
  });

  it("refuses nesting deeper than 100 levels instead of overflowing the stack", () => {
    expect(parseCondition(`${"(".repeat(100)}METRIC > 1${")".repeat(100)}`).ok).toBe(true);
    const deep = parseCondition(`${"(".repeat(10_000)}METRIC > 1${")".repeat(10_000)}`);
    expect(deep).toMatchObject({ ok: false, position: 101 });
    expect(parseCondition(`${"!".repeat(10_000)}METRIC > 1`)).toMatchObject({ ok: false, position: 101 });
  });

  it("evaluates twenty thousand comparisons joined by && and || in one loop", () => {
    const conjunction = Array.from({ length: 20_000 }, () => "METRIC > 1").join(" && ");
    expect(condition(conjunction).holds(2)).toBe(true);
    expect(condition(`${conjunction} && METRIC > 3`).holds(2)).toBe(false);
    expect(condition(Array.from({ length: 20_000 }, () => "METRIC < 1").join(" || ")).holds(2)).toBe(false);
  });
});
