import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_SELECTORS_PER_OBSERVER, matchSchema } from "./match-schema";

function issuesOf(input: unknown): { path: PropertyKey[]; message: string }[] {
  const result = matchSchema.safeParse(input);
  if (result.success) throw new Error(`${JSON.stringify(input)} was accepted`);
  return result.error.issues.map(({ path, message }) => ({ path, message }));
}

describe("matchSchema", () => {
  it("keeps the selectors as sent", () => {
    const match = ['node_cpu_seconds_total{mode!="idle"}', ' {"cpu.usage_idle", host=~"web-.*"} '];
    expect(matchSchema.parse(match)).toEqual(match);
  });

  it("reports each bad selector at its index, with the position of its problem", () => {
    expect(issuesOf(["up", '{job="node",}}', "{}", 7])).toEqual([
      {
        path: [1],
        message: 'Not a valid selector: unexpected "}" at position 13: expected the end of the selector.',
      },
      {
        path: [2],
        message:
          "Not a valid selector: every matcher matches the empty string at position 0: expected at least one that does not, such as a metric name (a label a series lacks reads as empty).",
      },
      { path: [3], message: "A selector must be a string." },
    ]);
  });

  it(`takes ${MAX_SELECTORS_PER_OBSERVER} selectors and refuses more at the array, parsing none of them`, () => {
    const selectors = Array.from({ length: MAX_SELECTORS_PER_OBSERVER }, (_, index) => `metric_${index}`);
    expect(matchSchema.parse(selectors)).toHaveLength(MAX_SELECTORS_PER_OBSERVER);
    expect(issuesOf([...selectors, "{"])).toEqual([
      { path: [], message: `At most ${MAX_SELECTORS_PER_OBSERVER} selectors may be given.` },
    ]);
  });

  it("refuses an empty array and what is not an array", () => {
    expect(issuesOf([])).toEqual([{ path: [], message: "Give at least one selector." }]);
    expect(issuesOf("up")).toEqual([{ path: [], message: "The match must be an array of selectors (strings)." }]);
  });

  it("describes itself with an example for the API document", () => {
    const schema = z.toJSONSchema(matchSchema, { io: "input" }) as {
      type: string;
      minItems: number;
      maxItems: number;
      description: string;
      examples: unknown[];
    };
    expect(schema).toMatchObject({ type: "array", minItems: 1, maxItems: MAX_SELECTORS_PER_OBSERVER });
    expect(schema.description).toContain("PromQL series selectors");
    expect(matchSchema.parse(schema.examples[0])).toEqual(schema.examples[0]);
  });
});
