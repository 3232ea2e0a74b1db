import { describe, expect, it } from "vitest";
import { allProblems, judgeableResources, singleElementMessage } from "./upload-problems";

describe("judgeableResources", () => {
  it("reads each element of the grouped form without its faulty fields", () => {
    const body = {
      vMs: [{ id: "vm1", type: "Frontend", cloudProvider: "nowhere", numberOfCPUs: 0 }],
      internalComponents: [{ id: "c1", type: "Svc", providedMethods: ["m1", 5], requiredComponents: ["vm1"] }],
    };
    const problems = [
      { path: "/vMs/0/numberOfCPUs", message: "Must be an integer of at least 1." },
      { path: "/internalComponents/0/providedMethods/1", message: "Must be the id of a Method." },
    ];
    expect(judgeableResources(body, problems)).toEqual([
      { at: "/vMs/0", resource: { clazz: "VM", id: "vm1", type: "Frontend", cloudProvider: "nowhere" } },
      {
        at: "/internalComponents/0",
        resource: {
          clazz: "InternalComponent",
          id: "c1",
          type: "Svc",
          providedMethods: [],
          requiredComponents: ["vm1"],
        },
      },
    ]);
  });

  it("reads the flat form's elements of a known class, and leaves out those whose id is at fault", () => {
    const body = [
      { clazz: "Method", id: "m1", type: "op", name: "x" },
      { clazz: "Method", id: "", type: "op" },
      { clazz: "Database", id: "db" },
      "mic1",
    ];
    const problems = [
      { path: "/0/name", message: "Unknown field." },
      { path: "/1/id", message: "Must be a non-empty string." },
    ];
    expect(judgeableResources(body, problems)).toEqual([
      { at: "/0", resource: { clazz: "Method", id: "m1", type: "op" } },
    ]);
  });

  it("reads nothing of a body that is neither form", () => {
    expect(judgeableResources("model", [])).toEqual([]);
    expect(judgeableResources({ vMs: "none" }, [])).toEqual([]);
  });
});

describe("allProblems", () => {
  it("adds the problems of ids and references that the schema's do not already name", () => {
    const schema = [{ path: "/0/cloudProvider", message: "Required: the id of a CloudProvider." }];
    const integrity = [
      { path: "/0/cloudProvider", message: 'No resource has the id "undefined".' },
      { path: "/1/providedMethods/0", message: 'No resource has the id "ghost"; expected a Method.' },
    ];
    expect(allProblems(schema, integrity)).toEqual([schema[0], integrity[1]]);
  });
});

describe("singleElementMessage", () => {
  it("names a body that is one element, and how to send it", () => {
    expect(singleElementMessage({ clazz: "VM", id: "vm1" }, "POST")).toBe(
      "This is one element, not a model: POST takes an array of elements (or the grouped form); wrap the element in [ ].",
    );
    expect(singleElementMessage({ clazz: "VM" }, "PUT")).toMatch(/PUT takes the whole model, an array of elements/);
  });

  it("says nothing of the two forms", () => {
    expect(singleElementMessage([{ clazz: "VM" }], "POST")).toBeUndefined();
    expect(singleElementMessage({ vMs: [] }, "POST")).toBeUndefined();
  });
});
