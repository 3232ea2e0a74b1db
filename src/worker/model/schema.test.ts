import { describe, expect, it } from "vitest";
import { emptyModel, wholeOntologyModel } from "../../../test/support/model";
import { collectorResourceSchema, modelDocumentSchema, modelUploadSchema } from "./schema";

function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path.join("/"), message: issue.message }));
}

describe("modelUploadSchema over the whole ontology", () => {
  it("reads the grouped form of every class, each element with its class", () => {
    const result = modelUploadSchema.safeParse(wholeOntologyModel);
    expect(result.success).toBe(true);
    const classes = new Map(result.data?.map(({ at, resource }) => [resource.id, { at, clazz: resource.clazz }]));
    expect(classes.get("eu-west")).toEqual({ at: "/locations/0", clazz: "Location" });
    expect(classes.get("db")).toEqual({ at: "/paaSServices/0", clazz: "PaaSService" });
    expect(classes.get("cdn")).toEqual({ at: "/externalComponents/0", clazz: "ExternalComponent" });
    expect(classes.get("legacy")).toEqual({ at: "/components/0", clazz: "Component" });
    expect(classes.get("rack1")).toEqual({ at: "/racks/0", clazz: "Rack" });
    expect(result.data).toHaveLength(16);
  });

  it("reads the flat form of every class, and defaults the sets to empty", () => {
    const result = modelUploadSchema.safeParse([
      { clazz: "Node", id: "n", type: "Blade" },
      { clazz: "Cluster", id: "c", type: "HPC", nodes: ["n"] },
      { clazz: "Rack", id: "r", type: "Rack42" },
      { clazz: "PaaSService", id: "p", type: "Queue" },
    ]);
    expect(result.data?.map((located) => located.resource)).toEqual([
      { clazz: "Node", id: "n", type: "Blade", vms: [] },
      { clazz: "Cluster", id: "c", type: "HPC", nodes: ["n"] },
      { clazz: "Rack", id: "r", type: "Rack42", nodes: [] },
      { clazz: "PaaSService", id: "p", type: "Queue" },
    ]);
  });

  it("requires a type on every class, and a VM's cloud provider and CPUs, but no location", () => {
    const result = modelUploadSchema.safeParse([
      { clazz: "Location", id: "l" },
      { clazz: "VM", id: "v", type: "Web", cloudProvider: "p", numberOfCPUs: 1 },
      { clazz: "VM", id: "w", type: "Web", location: "l" },
    ]);
    expect(issuesOf(result)).toEqual([
      { path: "0/type", message: "Required: a non-empty string." },
      { path: "2/cloudProvider", message: "Required: the id of a CloudProvider." },
      { path: "2/numberOfCPUs", message: "Required: an integer of at least 1." },
    ]);
  });

  it("names every class that owns a field used on the wrong one", () => {
    const result = modelUploadSchema.safeParse({ locations: [{ id: "l", type: "Region", cloudProvider: "p" }] });
    expect(issuesOf(result)).toEqual([
      {
        path: "locations/0/cloudProvider",
        message:
          'Field "cloudProvider" is not allowed on a Location; it belongs to VM, ExternalComponent and PaaSService.',
      },
    ]);
  });
});

describe("collectorResourceSchema", () => {
  it("reads a resource described by its id alone, or with what the collector knows", () => {
    expect(
      collectorResourceSchema.parse({ clazz: "VM", id: "Frontend1", cloudProvider: "AWS", type: "Frontend" }),
    ).toEqual({
      clazz: "VM",
      id: "Frontend1",
      cloudProvider: "AWS",
      type: "Frontend",
    });
    expect(collectorResourceSchema.parse({ clazz: "Node", id: "n1" })).toEqual({ clazz: "Node", id: "n1", vms: [] });
  });

  it("judges the fields it is given, by the class named", () => {
    const result = collectorResourceSchema.safeParse({ clazz: "Rack", id: "", nodes: "n1", vms: [] });
    expect(issuesOf(result)).toEqual([
      { path: "id", message: "Must be a non-empty string." },
      { path: "nodes", message: "Must be an array of Node ids." },
      { path: "vms", message: 'Field "vms" is not allowed on a Rack; it belongs to Node.' },
    ]);
  });

  it("refuses Resource, which only selects resources, and unknown classes", () => {
    for (const clazz of ["Resource", "Server"]) {
      expect(issuesOf(collectorResourceSchema.safeParse({ clazz, id: "x" }))[0]?.message).toMatch(
        new RegExp(`^Unknown class "${clazz}"; expected one of CloudProvider, `),
      );
    }
  });
});

describe("modelDocumentSchema", () => {
  it("describes the model GET /resources returns, every array present", () => {
    expect(modelDocumentSchema.safeParse({ ...emptyModel, ...wholeOntologyModel }).success).toBe(true);
    expect(modelDocumentSchema.safeParse({ ...emptyModel, vMs: [{ id: "bare" }] }).success).toBe(true);
    const { racks: _racks, ...withoutRacks } = emptyModel;
    expect(modelDocumentSchema.safeParse(withoutRacks).success).toBe(false);
  });
});
