import { describe, expect, it } from "vitest";
import {
  classesUnder,
  groupOfClass,
  inWords,
  isA,
  isResourceClass,
  referenceFieldsOf,
  resourceClasses,
  rootClass,
  withArticle,
} from "./ontology";

describe("the class hierarchy", () => {
  it.each([
    ["VM", "ExternalComponent"],
    ["VM", "Component"],
    ["PaaSService", "ExternalComponent"],
    ["PaaSService", "Component"],
    ["ExternalComponent", "Component"],
    ["InternalComponent", "Component"],
  ])("makes a %s also a %s", (clazz, ancestor) => {
    expect(isA(clazz, ancestor)).toBe(true);
    expect(isA(ancestor, clazz)).toBe(false);
  });

  it("makes every class a Resource and itself, and nothing else one", () => {
    for (const clazz of resourceClasses) {
      expect(isA(clazz, rootClass)).toBe(true);
      expect(isA(clazz, clazz)).toBe(true);
    }
    expect(isA("Server", rootClass)).toBe(false);
    expect(isA(rootClass, rootClass)).toBe(false);
  });

  it.each([
    ["InternalComponent", "ExternalComponent"],
    ["VM", "PaaSService"],
    ["Node", "Component"],
    ["Method", "Component"],
    ["VM", "Server"],
  ])("does not make a %s a %s", (clazz, other) => {
    expect(isA(clazz, other)).toBe(false);
  });

  it("lists the classes under a class, itself included", () => {
    expect(classesUnder("Component")).toEqual([
      "VM",
      "InternalComponent",
      "Component",
      "ExternalComponent",
      "PaaSService",
    ]);
    expect(classesUnder("ExternalComponent")).toEqual(["VM", "ExternalComponent", "PaaSService"]);
    expect(classesUnder("Node")).toEqual(["Node"]);
  });

  it("knows the eleven classes and no others", () => {
    expect(resourceClasses).toHaveLength(11);
    expect(resourceClasses.every(isResourceClass)).toBe(true);
    expect(isResourceClass("Resource")).toBe(false);
    expect(isResourceClass("vm")).toBe(false);
  });
});

describe("the grouped form and the references", () => {
  it("gives every class an array of its own", () => {
    expect(new Set(Object.values(groupOfClass)).size).toBe(resourceClasses.length);
  });

  it("declares the references of the contract", () => {
    const references = Object.fromEntries(
      resourceClasses.map((clazz) => [
        clazz,
        referenceFieldsOf(clazz).map(([field, { target, many }]) => `${field}→${target}${many ? "[]" : ""}`),
      ]),
    );
    expect(references).toEqual({
      CloudProvider: [],
      Method: [],
      VM: ["cloudProvider→CloudProvider", "location→Location"],
      InternalComponent: ["providedMethods→Method[]", "requiredComponents→Component[]"],
      Location: [],
      Component: [],
      ExternalComponent: ["cloudProvider→CloudProvider", "location→Location"],
      PaaSService: ["cloudProvider→CloudProvider", "location→Location"],
      Node: ["vms→VM[]"],
      Cluster: ["nodes→Node[]"],
      Rack: ["nodes→Node[]"],
    });
  });
});

describe("words", () => {
  it("puts an article before a class", () => {
    expect(withArticle("InternalComponent")).toBe("an InternalComponent");
    expect(withArticle("VM")).toBe("a VM");
  });

  it("lists items the way a sentence does", () => {
    expect(inWords([])).toBe("");
    expect(inWords(["a"])).toBe("a");
    expect(inWords(["a", "b"])).toBe("a and b");
    expect(inWords(["a", "b", "c"], "or")).toBe("a, b or c");
  });
});
