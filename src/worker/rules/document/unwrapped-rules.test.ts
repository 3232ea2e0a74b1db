import { describe, expect, it } from "vitest";
import { unwrappedRulesProblem } from "./unwrapped-rules";

const rule = { id: "r", timeStep: 60, timeWindow: 60, monitoredTargets: [{ class: "VM" }] };

describe("unwrappedRulesProblem", () => {
  it("names an array of rules", () => {
    expect(unwrappedRulesProblem([rule])).toEqual({
      path: "",
      message: 'The body is an array, not a rule document: wrap it as {"monitoringRules": [ … ]}.',
    });
  });

  it("names a rule alone", () => {
    expect(unwrappedRulesProblem(rule)).toEqual({
      path: "",
      message: 'The body is a single rule, not a rule document: wrap it as {"monitoringRules": [ … ]}.',
    });
  });

  it.each([
    ["a document", { monitoringRules: [rule] }],
    ["a document with more fields", { ...rule, monitoringRules: [] }],
    ["an object of other fields", { rules: [rule] }],
    ["a string", "rules"],
    ["null", null],
  ])("leaves %s to the schema", (_case, body) => {
    expect(unwrappedRulesProblem(body)).toBeUndefined();
  });
});
