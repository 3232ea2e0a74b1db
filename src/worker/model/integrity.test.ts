import { describe, expect, it } from "vitest";
import { integrityProblems, referencedIds } from "./integrity";
import type { ResourceClass } from "./ontology";
import type { LocatedResource, Resource } from "./schema";

/** The stored model the checks below write into: one resource of every class. */
const stored: Record<string, ResourceClass> = {
  aws: "CloudProvider",
  "eu-west": "Location",
  register: "Method",
  vm1: "VM",
  db: "PaaSService",
  cdn: "ExternalComponent",
  legacy: "Component",
  app: "InternalComponent",
  node1: "Node",
  cluster1: "Cluster",
  rack1: "Rack",
};
const storedClassOf = (id: string) => stored[id];

function located(...resources: Resource[]): LocatedResource[] {
  return resources.map((resource, index) => ({ at: `/${index}`, resource }));
}

const componentTarget = "a Component (or a VM, an InternalComponent, an ExternalComponent or a PaaSService)";

describe("integrityProblems: references of each class", () => {
  it.each<[string, Resource]>([
    ["a VM", { clazz: "VM", id: "vm9", cloudProvider: "aws", location: "eu-west", numberOfCPUs: 1 }],
    ["an ExternalComponent", { clazz: "ExternalComponent", id: "x9", cloudProvider: "aws", location: "eu-west" }],
    ["a PaaSService", { clazz: "PaaSService", id: "p9", cloudProvider: "aws", location: "eu-west" }],
    [
      "an InternalComponent requiring every kind of component",
      {
        clazz: "InternalComponent",
        id: "c9",
        providedMethods: ["register"],
        requiredComponents: ["vm1", "db", "cdn", "legacy", "app"],
      },
    ],
    ["a Node", { clazz: "Node", id: "n9", vms: ["vm1"] }],
    ["a Cluster", { clazz: "Cluster", id: "k9", nodes: ["node1"] }],
    ["a Rack", { clazz: "Rack", id: "r9", nodes: ["node1"] }],
    ["a Location", { clazz: "Location", id: "l9", type: "Region" }],
    ["a Component", { clazz: "Component", id: "g9" }],
  ])("accepts %s whose references resolve to the right classes", (_, resource) => {
    expect(integrityProblems(located(resource), storedClassOf)).toEqual([]);
  });

  it.each<[string, Resource, { path: string; message: string }[]]>([
    [
      "a VM",
      { clazz: "VM", id: "vm9", cloudProvider: "eu-west", location: "aws" },
      [
        { path: "/0/cloudProvider", message: '"eu-west" is a Location, not a CloudProvider.' },
        { path: "/0/location", message: '"aws" is a CloudProvider, not a Location.' },
      ],
    ],
    [
      "an ExternalComponent",
      { clazz: "ExternalComponent", id: "x9", location: "nowhere" },
      [{ path: "/0/location", message: 'No resource has the id "nowhere"; expected a Location.' }],
    ],
    [
      "a PaaSService",
      { clazz: "PaaSService", id: "p9", cloudProvider: "vm1" },
      [{ path: "/0/cloudProvider", message: '"vm1" is a VM, not a CloudProvider.' }],
    ],
    [
      "an InternalComponent",
      { clazz: "InternalComponent", id: "c9", providedMethods: ["app"], requiredComponents: ["register", "ghost"] },
      [
        { path: "/0/providedMethods/0", message: '"app" is an InternalComponent, not a Method.' },
        { path: "/0/requiredComponents/0", message: `"register" is a Method, not ${componentTarget}.` },
        { path: "/0/requiredComponents/1", message: `No resource has the id "ghost"; expected ${componentTarget}.` },
      ],
    ],
    [
      "a Node",
      { clazz: "Node", id: "n9", vms: ["vm1", "db"] },
      [{ path: "/0/vms/1", message: '"db" is a PaaSService, not a VM.' }],
    ],
    [
      "a Cluster",
      { clazz: "Cluster", id: "k9", nodes: ["rack1"] },
      [{ path: "/0/nodes/0", message: '"rack1" is a Rack, not a Node.' }],
    ],
    [
      "a Rack",
      { clazz: "Rack", id: "r9", nodes: ["cluster1"] },
      [{ path: "/0/nodes/0", message: '"cluster1" is a Cluster, not a Node.' }],
    ],
  ])("locates every wrong reference of %s", (_, resource, problems) => {
    expect(integrityProblems(located(resource), storedClassOf)).toEqual(problems);
  });

  it("resolves references to resources of the same body, whatever their order", () => {
    const body = located(
      { clazz: "Rack", id: "r9", nodes: ["n9"] },
      { clazz: "Node", id: "n9", vms: ["vm9"] },
      { clazz: "VM", id: "vm9", location: "l9" },
      { clazz: "Location", id: "l9" },
    );
    expect(integrityProblems(body, () => undefined)).toEqual([]);
  });

  it("lets an InternalComponent require itself or components that require it", () => {
    const body = located(
      { clazz: "InternalComponent", id: "a", providedMethods: [], requiredComponents: ["a", "b"] },
      { clazz: "InternalComponent", id: "b", providedMethods: [], requiredComponents: ["a"] },
    );
    expect(integrityProblems(body, () => undefined)).toEqual([]);
  });
});

describe("integrityProblems: ids", () => {
  it("reports an id used twice in the body, and a stored id that would change class", () => {
    const body = located(
      { clazz: "Node", id: "n9", vms: [] },
      { clazz: "Rack", id: "n9", nodes: [] },
      { clazz: "Cluster", id: "node1", nodes: [] },
    );
    expect(integrityProblems(body, storedClassOf)).toEqual([
      { path: "/1/id", message: 'Duplicate id "n9"; it is also used at /0.' },
      { path: "/2/id", message: '"node1" is a Node in the stored model; an id cannot change class (delete it first).' },
    ]);
  });
});

describe("referencedIds", () => {
  it("reads a single reference, a set, and an absent one", () => {
    const vm: Resource = { clazz: "VM", id: "vm9", cloudProvider: "aws" };
    expect(referencedIds(vm, "cloudProvider")).toEqual(["aws"]);
    expect(referencedIds(vm, "location")).toEqual([]);
    expect(referencedIds({ clazz: "Node", id: "n", vms: ["a", "b"] }, "vms")).toEqual(["a", "b"]);
  });
});
