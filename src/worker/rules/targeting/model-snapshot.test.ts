import { describe, expect, it } from "vitest";
import { referenceModel } from "../../../../test/support/model";
import type { ModelDocument, ResourceClass } from "../../model/schema";
import { canGroup, groupingOrder, ModelSnapshot } from "./model-snapshot";

/**
 * Two providers, three VMs, two components and four methods: `shared-health` is provided by both
 * components, and `mic2` runs on two VMs of different providers.
 */
const sharedModel: ModelDocument = {
  cloudProviders: [
    { id: "amazon", type: "IaaS" },
    { id: "flexi", type: "IaaS" },
  ],
  vMs: [
    { id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 },
    { id: "frontend2", type: "Frontend", cloudProvider: "flexi", numberOfCPUs: 2 },
    { id: "backend1", type: "Backend", cloudProvider: "amazon", numberOfCPUs: 4 },
  ],
  internalComponents: [
    {
      id: "mic1",
      type: "Mic",
      providedMethods: ["mic1-register", "mic1-answerQuestions", "shared-health"],
      requiredComponents: ["frontend1"],
    },
    {
      id: "mic2",
      type: "Mic",
      providedMethods: ["mic2-saveAnswers", "shared-health"],
      requiredComponents: ["frontend1", "frontend2"],
    },
  ],
  methods: [
    { id: "mic1-register", type: "register" },
    { id: "mic1-answerQuestions", type: "answerQuestions" },
    { id: "mic2-saveAnswers", type: "saveAnswers" },
    { id: "shared-health", type: "health" },
  ],
};

const reference = new ModelSnapshot(referenceModel);
const shared = new ModelSnapshot(sharedModel);

function sorted(ids: readonly string[]): string[] {
  return [...ids].sort();
}

describe("ModelSnapshot.selects", () => {
  it("selects the resource a target names by id", () => {
    expect(reference.selects([{ class: "Method", id: "mic1-register" }], "mic1-register")).toBe(true);
    expect(reference.selects([{ class: "Method", id: "mic1-register" }], "mic1-saveAnswers")).toBe(false);
  });

  it("does not select a resource named by id when the target's class is not the resource's", () => {
    expect(reference.selects([{ class: "VM", id: "mic1-register" }], "mic1-register")).toBe(false);
    expect(reference.selects([{ class: "Location", id: "frontend1" }], "frontend1")).toBe(false);
  });

  it("prefers the id to the type when a target gives both", () => {
    const target = { class: "Method", type: "saveAnswers", id: "mic1-register" };
    expect(reference.selects([target], "mic1-register")).toBe(true);
    expect(reference.selects([target], "mic1-saveAnswers")).toBe(false);
  });

  it("selects every resource of a type, whatever class the target names", () => {
    const target = { class: "InternalComponent", type: "Frontend" };
    expect(shared.selects([target], "frontend1")).toBe(true);
    expect(shared.selects([target], "frontend2")).toBe(true);
    expect(shared.selects([target], "backend1")).toBe(false);
    expect(shared.selects([target], "mic1")).toBe(false);
  });

  it("selects every resource of the class when the target names neither id nor type", () => {
    const target = { class: "Method" };
    for (const method of sharedModel.methods) expect(shared.selects([target], method.id)).toBe(true);
    expect(shared.selects([target], "mic1")).toBe(false);
    expect(shared.selects([target], "frontend1")).toBe(false);
    expect(shared.selects([target], "amazon")).toBe(false);
  });

  it("selects the union of several targets", () => {
    const targets = [
      { class: "Method", id: "mic1-register" },
      { class: "VM", type: "Backend" },
      { class: "CloudProvider" },
    ];
    expect(shared.selects(targets, "mic1-register")).toBe(true);
    expect(shared.selects(targets, "backend1")).toBe(true);
    expect(shared.selects(targets, "amazon")).toBe(true);
    expect(shared.selects(targets, "flexi")).toBe(true);
    expect(shared.selects(targets, "mic1-answerQuestions")).toBe(false);
    expect(shared.selects(targets, "frontend1")).toBe(false);
    expect(shared.selects(targets, "mic1")).toBe(false);
  });

  it("selects no resource the model does not hold, even by id", () => {
    expect(reference.selects([{ class: "Method", id: "ghost" }], "ghost")).toBe(false);
    expect(reference.selects([{ class: "Method" }], "ghost")).toBe(false);
    expect(reference.selects([{ class: "Method", type: "register" }], "ghost")).toBe(false);
  });

  it("selects nothing without targets", () => {
    expect(reference.selects([], "mic1-register")).toBe(false);
  });
});

describe("ModelSnapshot.groupsOf", () => {
  it("groups a Method into the InternalComponent that provides it", () => {
    expect(reference.groupsOf("mic1-register", "InternalComponent")).toEqual(["mic1"]);
  });

  it("groups an InternalComponent into the VM it requires", () => {
    expect(reference.groupsOf("mic1", "VM")).toEqual(["frontend1"]);
  });

  it("groups a VM into its CloudProvider", () => {
    expect(reference.groupsOf("frontend1", "CloudProvider")).toEqual(["amazon"]);
  });

  it("groups a Method into a VM through its component", () => {
    expect(reference.groupsOf("mic1-answerQuestions", "VM")).toEqual(["frontend1"]);
  });

  it("groups a Method into a CloudProvider through its component and VM", () => {
    expect(reference.groupsOf("mic1-saveAnswers", "CloudProvider")).toEqual(["amazon"]);
  });

  it("groups an InternalComponent into a CloudProvider through its VMs", () => {
    expect(sorted(shared.groupsOf("mic2", "CloudProvider"))).toEqual(["amazon", "flexi"]);
  });

  it.each([
    ["mic1-register", "Method"],
    ["mic1", "InternalComponent"],
    ["frontend1", "VM"],
    ["amazon", "CloudProvider"],
  ] as const)("groups %s into itself by its own class %s", (id, clazz) => {
    expect(reference.groupsOf(id, clazz)).toEqual([id]);
  });

  it("groups a method provided by two components into both", () => {
    expect(sorted(shared.groupsOf("shared-health", "InternalComponent"))).toEqual(["mic1", "mic2"]);
  });

  it("groups a component that requires two VMs into both", () => {
    expect(sorted(shared.groupsOf("mic2", "VM"))).toEqual(["frontend1", "frontend2"]);
  });

  it("names each group once however many paths lead to it", () => {
    expect(sorted(shared.groupsOf("shared-health", "VM"))).toEqual(["frontend1", "frontend2"]);
    expect(sorted(shared.groupsOf("shared-health", "CloudProvider"))).toEqual(["amazon", "flexi"]);
    expect(shared.groupsOf("mic1-register", "CloudProvider")).toEqual(["amazon"]);
  });

  it("groups a resource against the references' direction into nothing", () => {
    expect(reference.groupsOf("frontend1", "Method")).toEqual([]);
    expect(reference.groupsOf("amazon", "VM")).toEqual([]);
    expect(reference.groupsOf("mic1", "Method")).toEqual([]);
  });

  it("groups a resource the model does not link into nothing", () => {
    const unprovided = new ModelSnapshot({ ...sharedModel, methods: [{ id: "orphan", type: "orphan" }] });
    expect(unprovided.groupsOf("orphan", "InternalComponent")).toEqual([]);
    expect(unprovided.groupsOf("orphan", "CloudProvider")).toEqual([]);
  });

  it("groups a resource unknown to the model into nothing", () => {
    expect(reference.groupsOf("ghost", "VM")).toEqual([]);
    expect(reference.groupsOf("ghost", "Method")).toEqual([]);
  });
});

describe("canGroup", () => {
  const table: [ResourceClass, ResourceClass, boolean][] = [
    ["Method", "Method", true],
    ["Method", "InternalComponent", true],
    ["Method", "VM", true],
    ["Method", "CloudProvider", true],
    ["InternalComponent", "Method", false],
    ["InternalComponent", "InternalComponent", true],
    ["InternalComponent", "VM", true],
    ["InternalComponent", "CloudProvider", true],
    ["VM", "Method", false],
    ["VM", "InternalComponent", false],
    ["VM", "VM", true],
    ["VM", "CloudProvider", true],
    ["CloudProvider", "Method", false],
    ["CloudProvider", "InternalComponent", false],
    ["CloudProvider", "VM", false],
    ["CloudProvider", "CloudProvider", true],
  ];

  it.each(table)("groups %s by %s: %s", (target, grouping, expected) => {
    expect(canGroup(target, grouping)).toBe(expected);
  });

  it("covers every pair of the model's classes", () => {
    expect(table).toHaveLength(groupingOrder.length ** 2);
  });
});
