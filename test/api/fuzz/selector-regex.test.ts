import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSeriesSelector } from "../../../src/worker/selectors/selector-syntax";
import { compileSelectors, type SeriesView } from "../../../src/worker/selectors/series-matcher";
import { fuzzTimeoutMs } from "../support/fuzz";

/*
 * Regexes that take a backtracking engine exponential time, matched against values of 100,000
 * characters: through re2js the time stays linear in the value, so each match completes in
 * milliseconds where a backtracking engine would not complete at all. The regexes are written raw
 * (`…`), as PromQL users write them, so that their backslashes are the regex's.
 */

const longValue = 100_000;
/** Far above what a linear scan of 100,000 characters takes, far below what backtracking would. */
const budgetMs = 1_000;

const series = (value: string): SeriesView => ({ metric: value, resourceId: value, labels: [["job", value]] });

/** Whether the selector matches the series, and how long it took to decide, in milliseconds. */
function timed(selector: string, view: SeriesView): { matched: boolean; ms: number } {
  const predicate = compileSelectors([parseSeriesSelector(selector)]);
  const started = performance.now();
  const matched = predicate(view);
  return { matched, ms: performance.now() - started };
}

/** The regex in each place a selector can apply it: a label, `__name__`, `__resource__`, negated. */
const selectorsWith = (regex: string) => ({
  [`{job=~\`${regex}\`}`]: false,
  [`{__name__=~\`${regex}\`}`]: false,
  [`{__resource__=~\`${regex}\`}`]: false,
  // The first matcher refuses the empty string and lets the long value through to the regex.
  [`{job!="", job!~\`${regex}\`}`]: true,
});

describe("adversarial regexes on values of 100,000 characters", () => {
  const as = "a".repeat(longValue);
  const xs = "x".repeat(longValue);

  it.each([
    ["(a+)+$", `${as}!`, false],
    ["(a+)+$", as, true],
    ["(a|a)*b", as, false],
    ["(a|aa)*c", as, false],
    ["(x+x+)+y", xs, false],
    ["(a*)*b", as, false],
    ["(.*a){20}", `${as}b`, false],
    ["(\\w+\\s?)+$", `${"word ".repeat(longValue / 5)}!`, false],
    [".*.*.*=.*", xs, false],
    ["(?:a|a?)+b", as, false],
  ])("%s completes in linear time", (regex, value, matches) => {
    for (const [selector, negated] of Object.entries(selectorsWith(regex))) {
      const { matched, ms } = timed(selector, series(value));
      expect(matched, selector).toBe(matches !== negated);
      expect(ms, selector).toBeLessThan(budgetMs);
    }
  });

  it(
    "stays linear for nested repetitions of random pieces",
    () => {
      const piece = fc.constantFrom("a", "a?", "a*", "a+", ".", ".*", "(a|a)", "(a|aa)", "[ab]+", "\\w+");
      const nestedRegex = fc
        .tuple(
          fc.array(piece, { minLength: 1, maxLength: 4 }),
          fc.constantFrom("*", "+", "{2,}"),
          fc.constantFrom("", "b", "$", "!"),
        )
        .map(([pieces, repeat, tail]) => `(${pieces.join("")})${repeat}${tail}`);
      // The value as its length and last character, so that a counterexample stays short.
      const value = fc.tuple(fc.integer({ min: 10_000, max: longValue }), fc.constantFrom("", "!", "b", "c"));
      fc.assert(
        fc.property(nestedRegex, value, (regex, [length, last]) => {
          const { ms } = timed(`{job!="", job=~\`${regex}\`}`, series(`${"a".repeat(length)}${last}`));
          expect(ms, regex).toBeLessThan(budgetMs);
        }),
        { numRuns: 40 },
      );
    },
    fuzzTimeoutMs,
  );
});
