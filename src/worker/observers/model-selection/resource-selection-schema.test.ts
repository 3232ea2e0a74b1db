import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resourceSelectionSchema } from "./resource-selection-schema";

/** Each problem of `input` as its path and message. */
function problems(input: unknown): [string, string][] {
  const result = resourceSelectionSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("/"), issue.message]);
}

describe("resourceSelectionSchema", () => {
  it("takes any of its fields, or none", () => {
    const full = { class: "VM", type: "Frontend", ids: ["vm1", "vm2"], within: "aws" };
    expect(resourceSelectionSchema.parse(full)).toEqual(full);
    expect(resourceSelectionSchema.parse({})).toEqual({});
    expect(resourceSelectionSchema.parse({ class: "ExternalComponent" })).toEqual({ class: "ExternalComponent" });
  });

  it("names the model's classes when the class is none of them", () => {
    const message =
      "The class must be one of the model's classes: CloudProvider, Method, VM, InternalComponent, Location, " +
      "Component, ExternalComponent, PaaSService, Node, Cluster or Rack.";
    expect(problems({ class: "vm" })).toEqual([["class", message]]);
    expect(problems({ class: "Resource" })).toEqual([["class", message]]);
    expect(problems({ class: 3 })).toEqual([["class", message]]);
  });

  it("refuses empty, overlong and mistyped fields, each at its place", () => {
    expect(
      problems({ type: "", ids: ["vm1", "", "x".repeat(1_025), 7], within: "x".repeat(1_025), extra: true }),
    ).toEqual([
      ["type", "The type must not be empty."],
      ["ids/1", "The id must not be empty."],
      ["ids/2", "The id must be at most 1024 characters long."],
      ["ids/3", "The id must be a string."],
      ["within", "The within resource id must be at most 1024 characters long."],
      ["", 'Unrecognized key: "extra"'],
    ]);
    expect(problems({ type: "t".repeat(257), within: "" })).toEqual([
      ["type", "The type must be at most 256 characters long."],
      ["within", "The within resource id must not be empty."],
    ]);
    expect(problems({ type: 1 })).toEqual([["type", "The type must be a string."]]);
  });

  it("takes 1 to 1000 ids", () => {
    expect(problems({ ids: [] })).toEqual([["ids", "Give at least one id."]]);
    expect(problems({ ids: Array.from({ length: 1_000 }, (_, index) => `r${index}`) })).toEqual([]);
    expect(problems({ ids: Array.from({ length: 1_001 }, (_, index) => `r${index}`) })).toEqual([
      ["ids", "At most 1000 ids may be given."],
    ]);
    expect(problems({ ids: "vm1" })).toEqual([["ids", "The ids must be an array of resource ids (strings)."]]);
  });

  it("is registered for the OpenAPI document as ResourceSelection", () => {
    expect(z.globalRegistry.get(resourceSelectionSchema)).toMatchObject({ id: "ResourceSelection" });
  });
});
