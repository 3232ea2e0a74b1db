import { describe, expect, it } from "vitest";
import { emptyModel, wholeOntologyModel } from "../../../../test/support/model";
import { ModelView } from "./model-view";

const whole = new ModelView({ ...emptyModel, ...wholeOntologyModel });

describe("ModelView", () => {
  it("holds every resource of the model with its class and type", () => {
    expect(whole.resources.size).toBe(16);
    expect(whole.resources.get("vm1")).toEqual({ clazz: "VM", type: "Frontend" });
    expect(whole.resources.get("legacy")).toEqual({ clazz: "Component", type: "Mainframe" });
    expect(whole.resources.get("nowhere")).toBeUndefined();
    expect(new ModelView(emptyModel).resources.size).toBe(0);
  });

  it("places a VM within its provider, location, node, cluster and rack, and within itself", () => {
    for (const holder of ["aws", "eu-west", "node1", "cluster1", "rack1", "vm1"]) {
      expect(whole.isWithin("vm1", holder)).toBe(true);
    }
    expect(whole.isWithin("vm1", "us-east")).toBe(false);
    expect(whole.isWithin("vm1", "vm2")).toBe(false);
  });

  it("places a method, through the components that provide and require it, wherever they run", () => {
    for (const holder of ["app", "vm1", "vm2", "db", "aws", "eu-west", "us-east", "node1", "cluster1", "rack1"]) {
      expect(whole.isWithin("register", holder)).toBe(true);
    }
    expect(whole.isWithin("report", "worker")).toBe(true);
    expect(whole.isWithin("report", "vm1")).toBe(true);
  });

  it("groups as the rules do: into the nearest resources of the holder's class", () => {
    // A rule grouping `report` by InternalComponent counts it for `worker` only, not for the `app` worker requires.
    expect(whole.isWithin("report", "app")).toBe(false);
  });

  it("places nothing within what holds it not in the grouping relation, or outside the model", () => {
    expect(whole.isWithin("aws", "vm1")).toBe(false);
    expect(whole.isWithin("node1", "vm1")).toBe(false);
    expect(whole.isWithin("vm1", "register")).toBe(false);
    expect(whole.isWithin("vm1", "nowhere")).toBe(false);
    expect(whole.isWithin("nowhere", "aws")).toBe(false);
    expect(whole.isWithin("nowhere", "nowhere")).toBe(false);
  });
});
