import { describe, expect, it } from "vitest";
import { javaAppRegistration } from "../../../test/support/data-collectors";
import { zodProblems } from "../../shared/problems";
import { descriptorSchema } from "./descriptor-schema";

function problemsOf(body: unknown) {
  const result = descriptorSchema.safeParse(body);
  return result.success ? [] : zodProblems(result.error);
}

describe("descriptorSchema", () => {
  it("accepts the Java App collector's registration as it is", () => {
    const descriptor = descriptorSchema.parse(javaAppRegistration);
    expect(descriptor.keepAlive).toBe(45);
    expect(descriptor.resources.map((resource) => resource.id)).toEqual([
      "AWS",
      "Frontend1",
      "App1",
      "register_2047568",
    ]);
    expect(Object.keys(descriptor.monitoredResourcesByMetric)).toEqual([
      "ResponseTime",
      "EffectiveResponseTime",
      "Throughput",
    ]);
  });

  it("gives what a collector leaves out the original's defaults", () => {
    expect(descriptorSchema.parse({})).toEqual({
      resources: [],
      monitoredResourcesByMetric: {},
      keepAlive: 0,
      configSyncPeriod: 0,
    });
  });

  it("takes Resource as a monitored resource of any class, but not as a resource of the model", () => {
    expect(problemsOf({ monitoredResourcesByMetric: { m: [{ clazz: "Resource", id: "x" }] } })).toEqual([]);
    expect(problemsOf({ resources: [{ clazz: "Resource", id: "x" }] }).map((problem) => problem.path)).toEqual([
      "/resources/0/clazz",
    ]);
  });

  it("locates the problems of monitored resources by the class they name", () => {
    const problems = problemsOf({
      monitoredResourcesByMetric: {
        m: [
          { clazz: "Method", id: "m1", vms: [] },
          { clazz: "Resource", id: "" },
        ],
      },
    });
    expect(problems.map((problem) => problem.path)).toEqual([
      "/monitoredResourcesByMetric/m/0/vms",
      "/monitoredResourcesByMetric/m/1/id",
    ]);
  });

  it("refuses fields the original's description does not have", () => {
    expect(problemsOf({ relatedResources: [] }).map((problem) => problem.path)).toEqual(["/relatedResources"]);
  });
});
