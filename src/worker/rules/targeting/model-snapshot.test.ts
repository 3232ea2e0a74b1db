import { describe, expect, it } from "vitest";
import { emptyModel, referenceModelStored, wholeOntologyModel } from "../../../../test/support/model";
import type { ModelDocument } from "../../model/schema";
import { groupingsOf, type RuleClass, ruleClasses } from "./grouping";
import { ModelSnapshot } from "./model-snapshot";

/**
 * Two providers, three VMs, two components and four methods: `shared-health` is provided by both
 * components, and `mic2` runs on two VMs of different providers.
 */
const sharedModel: ModelDocument = {
  ...emptyModel,
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

const reference = new ModelSnapshot(referenceModelStored);
const whole = new ModelSnapshot({ ...emptyModel, ...wholeOntologyModel });
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

describe("ModelSnapshot over the whole ontology", () => {
  /** For one resource of each class of the rules: the groups of each class it falls into. */
  const expectedGroups: Record<string, { clazz: RuleClass; groups: Partial<Record<RuleClass, string[]>> }> = {
    register: {
      clazz: "Method",
      groups: {
        Method: ["register"],
        InternalComponent: ["app"],
        VM: ["vm1", "vm2"],
        PaaSService: ["db"],
        CloudProvider: ["aws"],
        Location: ["eu-west", "us-east"],
        Node: ["node1"],
        Cluster: ["cluster1"],
        Rack: ["rack1"],
      },
    },
    app: {
      clazz: "InternalComponent",
      groups: {
        InternalComponent: ["app"],
        VM: ["vm1", "vm2"],
        PaaSService: ["db"],
        CloudProvider: ["aws"],
        Location: ["eu-west", "us-east"],
        Node: ["node1"],
        Cluster: ["cluster1"],
        Rack: ["rack1"],
      },
    },
    db: { clazz: "PaaSService", groups: { PaaSService: ["db"], CloudProvider: ["aws"], Location: ["us-east"] } },
    vm1: {
      clazz: "VM",
      groups: {
        VM: ["vm1"],
        CloudProvider: ["aws"],
        Location: ["eu-west"],
        Node: ["node1"],
        Cluster: ["cluster1"],
        Rack: ["rack1"],
      },
    },
    node1: { clazz: "Node", groups: { Node: ["node1"], Cluster: ["cluster1"], Rack: ["rack1"] } },
    aws: { clazz: "CloudProvider", groups: { CloudProvider: ["aws"] } },
    "eu-west": { clazz: "Location", groups: { Location: ["eu-west"] } },
    cluster1: { clazz: "Cluster", groups: { Cluster: ["cluster1"] } },
    rack1: { clazz: "Rack", groups: { Rack: ["rack1"] } },
  };

  it("has a resource of every class of the rules, grouped exactly by the classes of the table", () => {
    expect(new Set(Object.values(expectedGroups).map((resource) => resource.clazz))).toEqual(new Set(ruleClasses));
    for (const { clazz, groups } of Object.values(expectedGroups)) {
      expect(new Set(Object.keys(groups))).toEqual(new Set([clazz, ...groupingsOf(clazz)]));
    }
  });

  const everyPair = Object.entries(expectedGroups).flatMap(([id, { clazz, groups }]) =>
    ruleClasses.map((groupingClass) => ({ id, clazz, groupingClass, expected: groups[groupingClass] ?? [] })),
  );

  it.each(everyPair)("groups $clazz $id by $groupingClass into $expected", ({ id, groupingClass, expected }) => {
    expect(sorted(whole.groupsOf(id, groupingClass))).toEqual(expected);
  });

  it("groups a Method only into the component that provides it, not into the components that one requires", () => {
    expect(whole.groupsOf("report", "InternalComponent")).toEqual(["worker"]);
  });

  it("groups through components that require components, to what those run on", () => {
    expect(sorted(whole.groupsOf("report", "VM"))).toEqual(["vm1", "vm2"]);
    expect(whole.groupsOf("worker", "PaaSService")).toEqual(["db"]);
    expect(sorted(whole.groupsOf("worker", "Location"))).toEqual(["eu-west", "us-east"]);
  });

  it("does not group through external and generic components, which the table leaves out", () => {
    const model = new ModelSnapshot({
      ...emptyModel,
      ...wholeOntologyModel,
      internalComponents: [{ id: "edge", type: "Edge", providedMethods: [], requiredComponents: ["cdn", "legacy"] }],
    });
    expect(model.groupsOf("edge", "CloudProvider")).toEqual([]);
    expect(model.groupsOf("cdn", "CloudProvider")).toEqual([]);
  });

  it("groups a VM without a location into no Location", () => {
    expect(whole.groupsOf("vm2", "Location")).toEqual([]);
    expect(whole.groupsOf("vm2", "Rack")).toEqual(["rack1"]);
  });

  it("ends on components that require each other", () => {
    const cyclic = new ModelSnapshot({
      ...emptyModel,
      ...wholeOntologyModel,
      internalComponents: [
        { id: "a", type: "A", providedMethods: ["register"], requiredComponents: ["b"] },
        { id: "b", type: "B", providedMethods: [], requiredComponents: ["a", "vm1"] },
      ],
    });
    expect(cyclic.groupsOf("register", "VM")).toEqual(["vm1"]);
    expect(cyclic.groupsOf("a", "InternalComponent")).toEqual(["a"]);
  });
});

describe("ModelSnapshot.selects over the whole ontology", () => {
  it.each([
    ["Location", "eu-west"],
    ["PaaSService", "db"],
    ["Node", "node1"],
    ["Cluster", "cluster1"],
    ["Rack", "rack1"],
  ])("selects every %s by its class, and %s by its id", (clazz, id) => {
    expect(whole.selects([{ class: clazz }], id)).toBe(true);
    expect(whole.selects([{ class: clazz, id }], id)).toBe(true);
    expect(whole.selects([{ class: "VM", id }], id)).toBe(false);
  });

  it("selects a resource of a subclass by the superclass's name", () => {
    expect(whole.selects([{ class: "ExternalComponent" }], "vm1")).toBe(true);
    expect(whole.selects([{ class: "Component", id: "db" }], "db")).toBe(true);
    expect(whole.selects([{ class: "VM" }], "cdn")).toBe(false);
  });

  it("selects by type a resource whatever its class, and none without a type", () => {
    expect(whole.selects([{ class: "VM", type: "CDN" }], "cdn")).toBe(true);
    const typeless = new ModelSnapshot({ ...emptyModel, locations: [{ id: "somewhere" }] });
    expect(typeless.selects([{ class: "Location", type: "Region" }], "somewhere")).toBe(false);
    expect(typeless.selects([{ class: "Location" }], "somewhere")).toBe(true);
  });
});
