import { describe, expect, it } from "vitest";
import type { RuleCollection } from "../rules/rule-registry";
import { collectorConfiguration, isAbout, requiredMetrics } from "./collector-configuration";
import type { MonitoredResource } from "./descriptor-schema";

const method: MonitoredResource = { clazz: "Method", id: "register_1", type: "register" };
const vm: MonitoredResource = { clazz: "VM", id: "vm1", type: "Frontend" };

describe("isAbout: the original's class, type and id matching", () => {
  it.each([
    ["the same class", { class: "Method" }, method, true],
    ["another class", { class: "VM" }, method, false],
    ["a superclass of the resource's class", { class: "ExternalComponent" }, vm, true],
    ["a superclass further up", { class: "Component" }, vm, true],
    ["a subclass of the resource's class", { class: "VM" }, { clazz: "ExternalComponent", id: "e" }, false],
    ["a resource declared as Resource, any class", { class: "VM" }, { clazz: "Resource", id: "x" }, true],
    ["the same type", { class: "Method", type: "register" }, method, true],
    ["another type", { class: "Method", type: "login" }, method, false],
    ["a type the resource does not name", { class: "Method", type: "login" }, { clazz: "Method", id: "m" }, true],
    ["the same id", { class: "Method", id: "register_1" }, method, true],
    ["another id", { class: "Method", id: "register_2" }, method, false],
    ["an id and the same type", { class: "Method", type: "register", id: "register_1" }, method, true],
    ["an id and another type", { class: "Method", type: "login", id: "register_1" }, method, false],
  ] as const)("%s", (_, target, resource, about) => {
    expect(isAbout(target, resource)).toBe(about);
  });
});

function collection(metricName: string, fields: Partial<RuleCollection> = {}): RuleCollection {
  return {
    collectedMetric: { metricName, parameters: {} },
    monitoredTargets: [{ class: "Method" }],
    outputMetric: `Average${metricName}`,
    ...fields,
  };
}

const daUrlOf = (metric: string) => `http://host/streams/${metric}`;

describe("collectorConfiguration", () => {
  it("hands each declared metric the configurations of the rules about its resources", () => {
    const configuration = collectorConfiguration(
      { ResponseTime: [method], CpuUtilization: [vm] },
      [
        collection("ResponseTime", {
          collectedMetric: { metricName: "ResponseTime", parameters: { samplingProbability: "0.5" } },
          monitoredTargets: [{ class: "Method", type: "register" }, { class: "InternalComponent" }],
        }),
        collection("CpuUtilization", { monitoredTargets: [{ class: "VM", id: "vm2" }] }),
      ],
      daUrlOf,
    );
    expect(configuration).toEqual({
      ResponseTime: [
        {
          parameters: { samplingProbability: "0.5" },
          targetResources: [
            ["Method", "register", null],
            ["InternalComponent", null, null],
          ],
          daUrl: "http://host/streams/ResponseTime",
          dataFormat: "TOWER/JSON",
        },
      ],
    });
  });

  it("counts identical configurations once, whatever the order of their parameters", () => {
    const configuration = collectorConfiguration(
      { ResponseTime: [method] },
      [
        collection("ResponseTime", { collectedMetric: { metricName: "ResponseTime", parameters: { a: "1", b: "2" } } }),
        collection("ResponseTime", { collectedMetric: { metricName: "ResponseTime", parameters: { b: "2", a: "1" } } }),
        collection("ResponseTime", { monitoredTargets: [{ class: "Method", type: "register" }] }),
      ],
      daUrlOf,
    );
    expect(configuration.ResponseTime).toHaveLength(2);
  });

  it("is empty when no rule collects a declared metric", () => {
    expect(collectorConfiguration({ ResponseTime: [method] }, [collection("Other")], daUrlOf)).toEqual({});
  });
});

describe("requiredMetrics", () => {
  it("lists the metrics rules read and no rule produces, sorted", () => {
    expect(requiredMetrics([collection("b"), collection("a"), collection("Averageb"), collection("a")])).toEqual([
      "a",
      "b",
    ]);
  });
});
