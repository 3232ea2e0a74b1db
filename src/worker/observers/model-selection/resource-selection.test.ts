import { describe, expect, it } from "vitest";
import { emptyModel, wholeOntologyModel } from "../../../../test/support/model";
import { ModelView } from "./model-view";
import { compileResourceSelection } from "./resource-selection";
import type { ResourceSelection } from "./resource-selection-schema";

const whole = new ModelView({ ...emptyModel, ...wholeOntologyModel });
const everyId = [...whole.resources.keys(), "nowhere"];

/** The ids of the model (and one outside it) that the selection selects, sorted. */
function selected(selection: ResourceSelection, model = whole): string[] {
  const matches = compileResourceSelection(selection, model);
  return everyId.filter((id) => matches(id)).sort();
}

describe("compileResourceSelection", () => {
  it("selects every resource of the model when nothing more is asked, and nothing outside it", () => {
    expect(selected({})).toEqual([...whole.resources.keys()].sort());
    expect(selected({ ids: ["nowhere"] })).toEqual([]);
    expect(selected({}, new ModelView(emptyModel))).toEqual([]);
  });

  it("selects no datum without a resource", () => {
    expect(compileResourceSelection({}, whole)(undefined)).toBe(false);
  });

  it("selects by class as the rules do: the class and its subclasses", () => {
    expect(selected({ class: "VM" })).toEqual(["vm1", "vm2"]);
    expect(selected({ class: "ExternalComponent" })).toEqual(["cdn", "db", "vm1", "vm2"]);
    expect(selected({ class: "Component" })).toEqual(["app", "cdn", "db", "legacy", "vm1", "vm2", "worker"]);
    expect(selected({ class: "Rack" })).toEqual(["rack1"]);
  });

  it("selects by type, whatever the class, and by id", () => {
    expect(selected({ type: "Frontend" })).toEqual(["vm1", "vm2"]);
    expect(selected({ type: "Region" })).toEqual(["eu-west", "us-east"]);
    expect(selected({ type: "frontend" })).toEqual([]);
    expect(selected({ ids: ["vm2", "login", "nowhere", "vm2"] })).toEqual(["login", "vm2"]);
  });

  it("selects only what meets every field given", () => {
    expect(selected({ class: "VM", type: "Frontend", ids: ["vm1", "app"] })).toEqual(["vm1"]);
    expect(selected({ class: "Location", type: "Frontend" })).toEqual([]);
    expect(selected({ class: "Method", ids: ["vm1"] })).toEqual([]);
    expect(selected({ type: "Region", within: "vm1" })).toEqual([]);
  });

  it("selects what is within a resource, transitively as the rules group", () => {
    expect(selected({ class: "VM", within: "aws" })).toEqual(["vm1", "vm2"]);
    expect(selected({ class: "VM", within: "eu-west" })).toEqual(["vm1"]);
    expect(selected({ within: "us-east" })).toEqual(["app", "db", "login", "register", "report", "us-east", "worker"]);
    expect(selected({ within: "rack1" })).toEqual([
      "app",
      "login",
      "node1",
      "rack1",
      "register",
      "report",
      "vm1",
      "vm2",
      "worker",
    ]);
    expect(selected({ class: "Method", within: "node1", ids: ["login", "report", "vm1"] })).toEqual([
      "login",
      "report",
    ]);
  });

  it("selects nothing within a resource the model lacks", () => {
    expect(selected({ within: "nowhere" })).toEqual([]);
  });
});
