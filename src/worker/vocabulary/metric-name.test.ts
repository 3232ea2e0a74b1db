import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { metricNameSchema } from "./metric-name";

const selectorMessage =
  'metric name must not contain "*", "{" or "}": to follow many metrics, register an observer with a selector at POST /observers';

/** The messages of what is wrong with `name` under a limit of 32 characters; none for a valid name. */
function problems(name: unknown): string[] {
  const result = metricNameSchema(32).safeParse(name);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("metricNameSchema", () => {
  it.each(["cpu", "cpu.usage_idle", "node_cpu_seconds_total", "Front end CPU ü ☃", "a:b=c,d", "[x](y)", "$?+^|"])(
    "accepts %o",
    (name) => {
      expect(problems(name)).toEqual([]);
    },
  );

  it.each([
    ["an empty name", "", "metric name must not be empty"],
    ["a name over the limit", "x".repeat(33), "metric name must be at most 32 characters long"],
    ["a control character", "a\u0007b", "metric name must not contain control characters"],
    ["a slash", "a/b", 'metric name must not contain "/"'],
    ["an unpaired surrogate", "a\ud800", "metric name must not contain unpaired surrogates"],
    ["a number", 42, "metric name must be a string"],
  ])("refuses %s", (_, name, message) => {
    expect(problems(name)).toEqual([message]);
  });

  it.each(["node_*", "*", "{job}", "cpu{mode}", "}", "a{", 'node_cpu{mode!="idle"}'])(
    "refuses %o, which looks like a selector, pointing at selector observers",
    (name) => {
      expect(problems(name)).toEqual([selectorMessage]);
    },
  );

  it("refuses every name holding *, { or }, and only for that when it is valid otherwise", () => {
    const plain = fc.string({ unit: fc.constantFrom("a", "z", ".", "_", "-", " ", "é"), maxLength: 10 });
    fc.assert(
      fc.property(plain, fc.constantFrom("*", "{", "}"), plain, (before, selectorCharacter, after) => {
        expect(problems(`${before}${selectorCharacter}${after}`)).toEqual([selectorMessage]);
        expect(problems(`${before}${after}`.length > 0 ? `${before}${after}` : "m")).toEqual([]);
      }),
    );
  });
});
