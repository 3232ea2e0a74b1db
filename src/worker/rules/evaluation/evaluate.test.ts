import { describe, expect, it } from "vitest";
import {
  aggregation,
  compiledRule,
  openConfig,
  type RuleFields,
  ruleDefinition,
} from "../../../../test/api/support/rules";
import { emptyModel, referenceModel } from "../../../../test/support/model";
import type { ModelDocument } from "../../model/schema";
import { type Datum, type SeriesLabels, seriesLabels } from "../../vocabulary/datum";
import { type Accumulator, addToAccumulator, newAccumulator } from "../aggregation/accumulator";
import { ModelSnapshot } from "../targeting/model-snapshot";
import { type CompiledRule, compileRule } from "./compile-rule";
import { allResources, evaluateWindow, passThrough, windowOutputId } from "./evaluate";

/** The reference model, and a second component that also provides `shared-health` and runs on two VMs. */
const modelDocument: ModelDocument = {
  ...emptyModel,
  cloudProviders: [
    { id: "amazon", type: "IaaS" },
    { id: "flexi", type: "IaaS" },
  ],
  vMs: [
    { id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 },
    { id: "frontend2", type: "Frontend", cloudProvider: "flexi", numberOfCPUs: 2 },
  ],
  internalComponents: [
    {
      ...referenceModel.internalComponents[0]!,
      providedMethods: [...referenceModel.internalComponents[0]!.providedMethods, "shared-health"],
    },
    { id: "mic2", type: "Mic", providedMethods: ["shared-health"], requiredComponents: ["frontend1", "frontend2"] },
  ],
  methods: [...referenceModel.methods, { id: "shared-health", type: "health" }],
};
const model = new ModelSnapshot(modelDocument);

function outputMetric(metric: string, parameters: Record<string, string> = {}): RuleFields {
  return { actions: [{ name: "OutputMetric", parameters: { metric, ...parameters } }] };
}

/** The test rule, named "rt". */
function compiled(...fields: RuleFields[]): CompiledRule {
  return compiledRule({ id: "rt" }, ...fields);
}

/** A closed window's accumulators, one per resource, as the rule keeps them. */
function windowOf(rule: CompiledRule, valuesByResource: Record<string, readonly number[]>): Map<string, Accumulator> {
  const window = new Map<string, Accumulator>();
  for (const [resourceId, values] of Object.entries(valuesByResource)) {
    const accumulator = newAccumulator(rule.keepsValues);
    for (const value of values) addToAccumulator(accumulator, value);
    window.set(resourceId, accumulator);
  }
  return window;
}

const end = 1_700_000_040_000;

/** The values 3, 9, 4, 10, 7 over two methods of mic1. */
const fiveValues = { "mic1-register": [3, 9, 4], "mic1-saveAnswers": [10, 7] };

function datum(resourceId: string, value: number, timestamp = end - 30_000): Datum {
  return { id: `d-${resourceId}-${value}`, metric: "ResponseTime", timestamp, value, resourceId };
}

describe("evaluateWindow", () => {
  describe("aggregates", () => {
    it.each([
      { fn: "Average", how: "(3 + 9 + 4 + 10 + 7) / 5 = 33 / 5", expected: 6.6 },
      {
        fn: "Percentile",
        thPercentile: "90",
        how: "thPercentile 90, sorted 3 4 7 9 10, rank ceil(0.9 · 5) = 5",
        expected: 10,
      },
      {
        fn: "Percentile",
        thPercentile: "50",
        how: "thPercentile 50, sorted 3 4 7 9 10, rank ceil(0.5 · 5) = 3",
        expected: 7,
      },
      {
        fn: "Percentile",
        thPercentile: "40",
        how: "thPercentile 40, sorted 3 4 7 9 10, rank ceil(0.4 · 5) = 2",
        expected: 4,
      },
      {
        fn: "Percentile",
        thPercentile: "0",
        how: "thPercentile 0, sorted 3 4 7 9 10, rank max(1, 0) = 1",
        expected: 3,
      },
      { fn: "Max", how: "the largest of 3 9 4 10 7", expected: 10 },
      { fn: "Min", how: "the smallest of 3 9 4 10 7", expected: 3 },
      { fn: "Sum", how: "3 + 9 + 4 + 10 + 7", expected: 33 },
      { fn: "Count", how: "five values", expected: 5 },
    ])("computes $fn of 3, 9, 4, 10, 7: $how = $expected", ({ fn, thPercentile, expected }) => {
      const rule = compiled(aggregation(fn, thPercentile === undefined ? {} : { thPercentile }));
      expect(evaluateWindow(rule, model, windowOf(rule, fiveValues), end)).toEqual([
        {
          id: windowOutputId("rt", end, allResources),
          metric: "AverageResponseTime",
          timestamp: end,
          value: expected,
          resourceId: allResources,
        },
      ]);
    });
  });

  describe("value expressions", () => {
    it("computes SUM(METRIC)/COUNT(METRIC) over the whole window without a metricAggregation", () => {
      const rule = compiled(
        outputMetric("AverageResponseTime", { value: "SUM(METRIC)/COUNT(METRIC)", resourceId: "mic1" }),
      );
      expect(rule.windowed).toBe(true);
      const output = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output).toEqual([
        {
          id: windowOutputId("rt", end, allResources),
          metric: "AverageResponseTime",
          timestamp: end,
          value: 6.6,
          resourceId: "mic1",
        },
      ]);
    });

    it("applies METRIC * 1000 to the aggregated value", () => {
      const rule = compiled(aggregation("Average"), outputMetric("AverageResponseTimeMs", { value: "METRIC * 1000" }));
      const [output] = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output).toMatchObject({ value: 6600, metric: "AverageResponseTimeMs", resourceId: allResources });
    });

    it("computes PERCENTILE(METRIC, 50) as the nearest rank of the window's values", () => {
      const rule = compiled(outputMetric("MedianResponseTime", { value: "PERCENTILE(METRIC, 50)" }));
      expect(rule.keepsValues).toBe(true);
      const [output] = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output).toMatchObject({ value: 7, resourceId: allResources });
    });

    it("computes aggregates of the expression beside the rule's own aggregate", () => {
      const rule = compiled(aggregation("Max"), outputMetric("Spread", { value: "METRIC - MIN(METRIC)" }));
      const [output] = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output?.value).toBe(10 - 3);
    });
  });

  describe("condition", () => {
    it("emits the window's datum when the aggregated value passes the condition", () => {
      const rule = compiled(aggregation("Average"), { condition: "METRIC > 6" });
      expect(evaluateWindow(rule, model, windowOf(rule, fiveValues), end).map((d) => d.value)).toEqual([6.6]);
    });

    it("emits nothing when the aggregated value fails it, though single values would pass", () => {
      const rule = compiled(aggregation("Average"), { condition: "METRIC > 7" });
      expect(evaluateWindow(rule, model, windowOf(rule, fiveValues), end)).toEqual([]);
    });

    it("tests the aggregated value, not the output value", () => {
      const rule = compiled(aggregation("Average"), outputMetric("Ms", { value: "METRIC * 1000" }), {
        condition: "METRIC < 10",
      });
      expect(evaluateWindow(rule, model, windowOf(rule, fiveValues), end).map((d) => d.value)).toEqual([6600]);
    });

    it("drops each group that fails it and keeps the others", () => {
      const rule = compiled(aggregation("Average", { groupingClass: "InternalComponent" }), {
        condition: "METRIC >= 5 && METRIC < 100",
        monitoredTargets: [{ class: "Method" }, { class: "InternalComponent" }],
      });
      const window = windowOf(rule, { "mic1-register": [1, 2], mic2: [5, 7] });
      expect(evaluateWindow(rule, model, window, end).map((d) => [d.resourceId, d.value])).toEqual([["mic2", 6]]);
    });
  });

  describe('output resourceId (the table of docs/API.md, "Actions")', () => {
    it("row 1 — no aggregation, ID: each datum keeps its own resourceId", () => {
      const rule = compiled();
      expect(rule.windowed).toBe(false);
      const data = [datum("mic1-register", 3), datum("mic1-saveAnswers", 9)];
      expect(passThrough(rule, model, data).map((d) => d.resourceId)).toEqual(["mic1-register", "mic1-saveAnswers"]);
    });

    it("row 2 — aggregation with a groupingClass, ID: the id of the group's resource", () => {
      const rule = compiled(aggregation("Sum", { groupingClass: "InternalComponent" }));
      expect(evaluateWindow(rule, model, windowOf(rule, fiveValues), end)).toEqual([
        {
          id: windowOutputId("rt", end, "mic1"),
          metric: "AverageResponseTime",
          timestamp: end,
          value: 33,
          resourceId: "mic1",
        },
      ]);
    });

    it("row 3 — aggregation without a groupingClass, ID: ALL, one datum per window", () => {
      const rule = compiled(aggregation("Sum"));
      const output = evaluateWindow(rule, model, windowOf(rule, { ...fiveValues, "shared-health": [1] }), end);
      expect(output).toEqual([
        {
          id: windowOutputId("rt", end, "ALL"),
          metric: "AverageResponseTime",
          timestamp: end,
          value: 34,
          resourceId: "ALL",
        },
      ]);
    });

    it("row 4 — aggregation without a groupingClass, a custom string: that string", () => {
      const rule = compiled(aggregation("Sum"), outputMetric("TotalResponseTime", { resourceId: "mic-service" }));
      const [output] = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output).toMatchObject({ resourceId: "mic-service", value: 33 });
    });

    it("row 4 — no aggregation, a custom string: that string on every datum", () => {
      const rule = compiled(outputMetric("TaggedResponseTime", { resourceId: "mic-service" }));
      const data = [datum("mic1-register", 3), datum("mic1-saveAnswers", 9)];
      expect(passThrough(rule, model, data).map((d) => d.resourceId)).toEqual(["mic-service", "mic-service"]);
    });

    it("row 5 — a groupingClass and a custom string: the rule does not compile", () => {
      const definition = ruleDefinition(
        { id: "rt" },
        aggregation("Average", { groupingClass: "VM" }),
        outputMetric("AverageResponseTime", { resourceId: "mic-service" }),
      );
      const result = compileRule(definition, [], openConfig);
      expect(result.ok).toBe(false);
      expect(result.ok ? [] : result.problems).toEqual([
        {
          path: "/actions/0/parameters/resourceId",
          message:
            'Rule "rt": a custom resourceId ("mic-service") cannot be combined with a groupingClass: each group is its own resource. Use ID.',
        },
      ]);
    });
  });

  describe("grouping", () => {
    it("merges the data of two methods of one component grouped by InternalComponent", () => {
      const rule = compiled(aggregation("Average", { groupingClass: "InternalComponent" }));
      const output = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output.map((d) => [d.resourceId, d.value])).toEqual([["mic1", 6.6]]);
    });

    it("groups methods into the CloudProvider through their component and VM", () => {
      const rule = compiled(aggregation("Count", { groupingClass: "CloudProvider" }));
      const output = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output.map((d) => [d.resourceId, d.value])).toEqual([["amazon", 5]]);
    });

    it("ignores resources the targets do not select", () => {
      const rule = compiled(aggregation("Sum"), { monitoredTargets: [{ class: "Method", id: "mic1-register" }] });
      const output = evaluateWindow(rule, model, windowOf(rule, fiveValues), end);
      expect(output.map((d) => d.value)).toEqual([3 + 9 + 4]);
    });

    it("ignores resources unknown to the model", () => {
      const rule = compiled(aggregation("Sum"));
      const output = evaluateWindow(rule, model, windowOf(rule, { ...fiveValues, ghost: [1000] }), end);
      expect(output.map((d) => d.value)).toEqual([33]);
    });

    it("counts a datum that maps to two groups in both", () => {
      const rule = compiled(aggregation("Sum", { groupingClass: "InternalComponent" }));
      const window = windowOf(rule, { "shared-health": [5], "mic1-register": [1] });
      expect(evaluateWindow(rule, model, window, end).map((d) => [d.resourceId, d.value])).toEqual([
        ["mic1", 6],
        ["mic2", 5],
      ]);
    });

    it("counts a datum in every VM and provider it reaches, once however many paths lead there", () => {
      const byVm = compiled(aggregation("Count", { groupingClass: "VM" }));
      expect(
        evaluateWindow(byVm, model, windowOf(byVm, { "shared-health": [5, 6] }), end).map((d) => [
          d.resourceId,
          d.value,
        ]),
      ).toEqual([
        ["frontend1", 2],
        ["frontend2", 2],
      ]);
      const byProvider = compiled(aggregation("Count", { groupingClass: "CloudProvider" }));
      expect(
        evaluateWindow(byProvider, model, windowOf(byProvider, { "shared-health": [5, 6] }), end).map((d) => [
          d.resourceId,
          d.value,
        ]),
      ).toEqual([
        ["amazon", 2],
        ["flexi", 2],
      ]);
    });

    it("merges the kept values of several resources for a grouped percentile", () => {
      const rule = compiled(aggregation("Percentile", { groupingClass: "InternalComponent", thPercentile: "90" }));
      const output = evaluateWindow(rule, model, windowOf(rule, { ...fiveValues, "shared-health": [20] }), end);
      expect(output.map((d) => [d.resourceId, d.value])).toEqual([
        ["mic1", 20],
        ["mic2", 20],
      ]);
    });

    it("derives each datum's id from the rule, the window's end and the group, in group order", () => {
      const rule = compiled(aggregation("Sum", { groupingClass: "VM" }), {
        monitoredTargets: [{ class: "Method" }, { class: "VM" }],
      });
      const window = windowOf(rule, { frontend2: [2], "mic1-register": [1] });
      const output = evaluateWindow(rule, model, window, end);
      expect(output).toEqual([
        {
          id: "rt/1700000040000/frontend1",
          metric: "AverageResponseTime",
          timestamp: end,
          value: 1,
          resourceId: "frontend1",
        },
        {
          id: "rt/1700000040000/frontend2",
          metric: "AverageResponseTime",
          timestamp: end,
          value: 2,
          resourceId: "frontend2",
        },
      ]);
      expect(output.map((d) => d.id)).toEqual([
        windowOutputId("rt", end, "frontend1"),
        windowOutputId("rt", end, "frontend2"),
      ]);
      expect(evaluateWindow(rule, model, windowOf(rule, { "mic1-register": [1], frontend2: [2] }), end)).toEqual(
        output,
      );
    });

    it("leaves the window's accumulators as they were, so evaluating it again gives the same output", () => {
      const rule = compiled(aggregation("Percentile", { groupingClass: "VM", thPercentile: "50" }));
      const ranks = Array.from({ length: 600 }, (_, index) => index + 1);
      const window = windowOf(rule, { "mic1-register": ranks, "shared-health": ranks.map((rank) => rank + 600) });
      const before = structuredClone(window);
      const output = evaluateWindow(rule, model, window, end);
      expect(window).toEqual(before);
      expect(evaluateWindow(rule, model, window, end)).toEqual(output);
      const [frontend1, frontend2] = output;
      expect(frontend1?.resourceId).toBe("frontend1");
      expect(Math.abs(frontend1!.value - 600) / 600).toBeLessThanOrEqual(0.01);
      expect(frontend2).toMatchObject({ resourceId: "frontend2", value: 900 });
    });

    it("gives different windows and groups different ids", () => {
      expect(windowOutputId("rt", end, "mic1")).not.toBe(windowOutputId("rt", end + 60_000, "mic1"));
      expect(windowOutputId("rt", end, "mic1")).not.toBe(windowOutputId("rt", end, "mic2"));
      expect(windowOutputId("rt", end, "mic1")).not.toBe(windowOutputId("other", end, "mic1"));
    });
  });

  describe("empty windows", () => {
    it("emits nothing for a window without data", () => {
      const rule = compiled(aggregation("Count"));
      expect(evaluateWindow(rule, model, new Map(), end)).toEqual([]);
    });

    it("emits nothing when no datum of the window is selected", () => {
      const rule = compiled(aggregation("Count"), { monitoredTargets: [{ class: "VM" }] });
      expect(evaluateWindow(rule, model, windowOf(rule, { ...fiveValues, ghost: [1] }), end)).toEqual([]);
    });

    it("emits nothing for a group whose accumulators hold no value", () => {
      const rule = compiled(aggregation("Count", { groupingClass: "InternalComponent" }));
      const window = windowOf(rule, { "mic1-register": [], "shared-health": [4] });
      expect(evaluateWindow(rule, model, window, end).map((d) => [d.resourceId, d.value])).toEqual([
        ["mic1", 1],
        ["mic2", 1],
      ]);
      expect(evaluateWindow(rule, model, windowOf(rule, { "mic1-register": [] }), end)).toEqual([]);
    });
  });
});

describe("passThrough", () => {
  it("outputs each selected datum on its own, with its own timestamp and an id derived from the rule and datum", () => {
    const rule = compiled();
    const data = [datum("mic1-register", 3, 1_000), datum("mic1-saveAnswers", 9, 2_000)];
    expect(passThrough(rule, model, data)).toEqual([
      {
        id: "rt/d-mic1-register-3",
        metric: "AverageResponseTime",
        timestamp: 1_000,
        value: 3,
        resourceId: "mic1-register",
      },
      {
        id: "rt/d-mic1-saveAnswers-9",
        metric: "AverageResponseTime",
        timestamp: 2_000,
        value: 9,
        resourceId: "mic1-saveAnswers",
      },
    ]);
  });

  it("applies the condition to each datum", () => {
    const rule = compiled({ condition: "METRIC > 5" });
    const data = [datum("mic1-register", 3), datum("mic1-register", 9), datum("mic1-saveAnswers", 10)];
    expect(passThrough(rule, model, data).map((d) => d.value)).toEqual([9, 10]);
  });

  it("applies the condition to the datum's value, not the output value", () => {
    const rule = compiled(outputMetric("Ms", { value: "METRIC * 1000" }), { condition: "METRIC < 5" });
    const data = [datum("mic1-register", 3), datum("mic1-register", 9)];
    expect(passThrough(rule, model, data).map((d) => d.value)).toEqual([3000]);
  });

  it("ignores data of resources the targets do not select or the model does not hold", () => {
    const rule = compiled({ monitoredTargets: [{ class: "Method", type: "register" }] });
    const data = [datum("mic1-register", 3), datum("mic1-saveAnswers", 9), datum("frontend1", 1), datum("ghost", 2)];
    expect(passThrough(rule, model, data).map((d) => d.resourceId)).toEqual(["mic1-register"]);
  });

  describe("an agent's datum", () => {
    const tags = seriesLabels([["host", "mic1-register"]]);
    const lineLabels = seriesLabels(tags.pairs, ["cpu", "usage", "integer"]);
    const otlp = seriesLabels([["host.name", "mic1-register"]], undefined, "host.name");
    const labelled = (value: number, labels: SeriesLabels): Datum => ({ ...datum("mic1-register", value), labels });

    it("keeps its labels, one object for the output of one input's, without the line it came as", () => {
      const output = passThrough(compiled(), model, [
        labelled(1, lineLabels),
        labelled(2, lineLabels),
        labelled(3, otlp),
        labelled(4, tags),
        datum("mic1-register", 5),
      ]);
      expect(output.map(({ labels }) => labels)).toEqual([
        { pairs: tags.pairs },
        { pairs: tags.pairs },
        otlp,
        tags,
        undefined,
      ]);
      expect(output[1]!.labels).toBe(output[0]!.labels);
      expect(output[0]!.labels!.pairs).toBe(lineLabels.pairs);
      expect(output[2]!.labels).toBe(otlp);
      expect(output[4]).not.toHaveProperty("labels");
    });

    it("has none when the rule gives its output a resourceId of its own", () => {
      const rule = compiled(outputMetric("Tagged", { resourceId: "mic-service" }));
      expect(passThrough(rule, model, [labelled(1, otlp)])[0]).not.toHaveProperty("labels");
    });
  });
});
