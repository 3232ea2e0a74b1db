import { describe, expect, it } from "vitest";
import { mergedResource } from "./resource-merge";
import type { Resource } from "./schema";

describe("mergedResource", () => {
  it("unites the sets of references, stored ids first", () => {
    const stored: Resource = {
      clazz: "InternalComponent",
      id: "app",
      type: "App",
      providedMethods: ["a", "b"],
      requiredComponents: ["vm1"],
    };
    const incoming: Resource = {
      clazz: "InternalComponent",
      id: "app",
      type: "App",
      providedMethods: ["c", "a"],
      requiredComponents: [],
    };
    expect(mergedResource(stored, incoming)).toEqual({
      clazz: "InternalComponent",
      id: "app",
      type: "App",
      providedMethods: ["a", "b", "c"],
      requiredComponents: ["vm1"],
    });
  });

  it("replaces the other fields given, and keeps the ones left out", () => {
    const stored: Resource = {
      clazz: "VM",
      id: "vm1",
      type: "Frontend",
      cloudProvider: "aws",
      location: "eu",
      numberOfCPUs: 4,
    };
    expect(mergedResource(stored, { clazz: "VM", id: "vm1", cloudProvider: "gcp", location: undefined })).toEqual({
      clazz: "VM",
      id: "vm1",
      type: "Frontend",
      cloudProvider: "gcp",
      location: "eu",
      numberOfCPUs: 4,
    });
  });

  it("unites a Node's VMs and a Cluster's or a Rack's nodes", () => {
    const node = (vms: string[]): Resource => ({ clazz: "Node", id: "n", vms });
    expect(mergedResource(node(["x", "vm1"]), node(["vm2", "vm1"]))).toEqual(node(["x", "vm1", "vm2"]));
    const stored: Resource = { clazz: "Rack", id: "r", type: "Rack42", nodes: ["n1"] };
    expect(mergedResource(stored, { clazz: "Rack", id: "r", nodes: ["n2"] })).toEqual({
      ...stored,
      nodes: ["n1", "n2"],
    });
    const cluster: Resource = { clazz: "Cluster", id: "c", nodes: ["n1"] };
    expect(mergedResource(cluster, { ...cluster, type: "HPC", nodes: [] })).toEqual({ ...cluster, type: "HPC" });
  });
});
