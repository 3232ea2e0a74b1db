import { describe, expect, it } from "vitest";
import { canGroup, groupingsOf, isRuleClass, type RuleClass, ruleClasses } from "./grouping";

/** The original's grouping table as written: each class and the classes it groups into besides itself. */
const originalTable: Record<RuleClass, RuleClass[]> = {
  Method: ["InternalComponent", "VM", "PaaSService", "CloudProvider", "Location", "Node", "Cluster", "Rack"],
  InternalComponent: ["VM", "PaaSService", "CloudProvider", "Location", "Node", "Cluster", "Rack"],
  PaaSService: ["CloudProvider", "Location"],
  VM: ["CloudProvider", "Location", "Node", "Cluster", "Rack"],
  Node: ["Cluster", "Rack"],
  CloudProvider: [],
  Location: [],
  Cluster: [],
  Rack: [],
};

const everyPair = ruleClasses.flatMap((from) =>
  ruleClasses.map((into) => [from, into, from === into || originalTable[from].includes(into)] as const),
);

describe("canGroup", () => {
  it("covers every pair of the rules' classes", () => {
    expect(everyPair).toHaveLength(81);
  });

  it.each(everyPair)("groups %s by %s: %s", (from, into, expected) => {
    expect(canGroup(from, into)).toBe(expected);
  });

  it.each(["Component", "ExternalComponent"] as const)("groups the model's class %s only by itself", (clazz) => {
    expect(canGroup(clazz, clazz)).toBe(true);
    for (const into of ruleClasses) expect(canGroup(clazz, into)).toBe(false);
  });
});

describe("groupingsOf", () => {
  it.each(ruleClasses)("lists what %s groups into, in the order of the rules' classes", (from) => {
    expect(groupingsOf(from)).toEqual(ruleClasses.filter((into) => originalTable[from].includes(into)));
  });
});

describe("isRuleClass", () => {
  it("knows the original's grouping categories and nothing else", () => {
    expect(ruleClasses.every(isRuleClass)).toBe(true);
    for (const name of ["Component", "ExternalComponent", "Resource", "vm", ""]) expect(isRuleClass(name)).toBe(false);
  });
});
