import { describe, expect, it } from "vitest";
import {
  aggregation,
  compiledRule,
  openConfig,
  type RuleFields,
  ruleDefinition,
} from "../../../../test/api/support/rules";
import type { FieldProblem } from "../../../shared/problems";
import { readConfig } from "../../config";
import { validOriginalDocuments } from "../document/fixtures/original-documents";
import { rulesDocumentSchema } from "../document/rule-schema";
import { readRulesXml } from "../document/rules-xml-reader";
import { compileRule, restCallMetric } from "./compile-rule";

const publicOnlyConfig = readConfig({ AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "false" });

const definition = ruleDefinition;

function action(name: string, parameters: Record<string, string> = {}): RuleFields {
  return { actions: [{ name, parameters }] };
}

function output(parameters: Record<string, string>): RuleFields {
  return action("OutputMetric", { metric: "AverageResponseTime", ...parameters });
}

const compiled = compiledRule;

function problemsOf(fields: RuleFields[], options: { at?: PropertyKey[]; config?: typeof openConfig } = {}) {
  const result = compileRule(definition(...fields), options.at ?? [], options.config ?? openConfig);
  if (result.ok) throw new Error("the rule compiles, though a problem was expected");
  return result.problems;
}

function problem(path: string, message: string): FieldProblem {
  return { path, message: `Rule "r": ${message}` };
}

const ruleClasses = "CloudProvider, Location, Method, InternalComponent, PaaSService, VM, Node, Cluster, Rack";

describe("compileRule: problems", () => {
  it("refuses a step longer than the window", () => {
    expect(problemsOf([{ timeStep: 120, timeWindow: 60 }])).toEqual([
      problem("/timeStep", "the step (120 s) must not be longer than the window (60 s)."),
    ]);
  });

  it.each(["Component", "ExternalComponent"])("refuses the model's class %s, which rules cannot name", (clazz) => {
    expect(problemsOf([{ monitoredTargets: [{ class: "Method" }, { class: clazz }] }])).toEqual([
      problem(
        "/monitoredTargets/1/class",
        `${clazz} is a class of the model, but rules target and group by ${ruleClasses} only (as the original's did).`,
      ),
    ]);
  });

  it.each(["Resource", "Server", "vm"])("refuses the unknown class %s", (clazz) => {
    expect(problemsOf([{ monitoredTargets: [{ class: clazz }] }])).toEqual([
      problem("/monitoredTargets/0/class", `Unknown class "${clazz}"; rules target and group by ${ruleClasses}.`),
    ]);
  });

  it("refuses a grouping class rules cannot name", () => {
    expect(problemsOf([aggregation("Average", { groupingClass: "Component" })])).toEqual([
      problem(
        "/metricAggregation/groupingClass",
        `Component is a class of the model, but rules target and group by ${ruleClasses} only (as the original's did).`,
      ),
    ]);
  });

  it.each(["Location", "PaaSService", "Node", "Cluster", "Rack"])(
    "accepts %s as a target and grouping class",
    (clazz) => {
      const rule = compiled({ monitoredTargets: [{ class: clazz }] }, aggregation("Average", { groupingClass: clazz }));
      expect(rule.groupingClass).toBe(clazz);
    },
  );

  it.each(["Median", "average", "AVG"])("refuses the unknown aggregate function %s", (fn) => {
    expect(problemsOf([aggregation(fn)])).toEqual([
      problem(
        "/metricAggregation/aggregateFunction",
        `unknown aggregate function "${fn}"; expected one of Average, Percentile, Max, Min, Sum, Count.`,
      ),
    ]);
  });

  it("refuses a Percentile without thPercentile", () => {
    expect(problemsOf([aggregation("Percentile")])).toEqual([
      problem(
        "/metricAggregation/parameters/thPercentile",
        "Percentile needs the parameter thPercentile, a number from 0 to 100.",
      ),
    ]);
  });

  it.each(["101", "-1", "abc", "", " ", "NaN"])("refuses a Percentile with thPercentile %j", (thPercentile) => {
    expect(problemsOf([aggregation("Percentile", { thPercentile })])).toEqual([
      problem(
        "/metricAggregation/parameters/thPercentile",
        "Percentile needs the parameter thPercentile, a number from 0 to 100.",
      ),
    ]);
  });

  it("refuses grouping a VM by Method", () => {
    expect(
      problemsOf([{ monitoredTargets: [{ class: "VM" }] }, aggregation("Average", { groupingClass: "Method" })]),
    ).toEqual([
      problem(
        "/metricAggregation/groupingClass",
        "cannot group VM by Method: a VM groups only into VM, CloudProvider, Location, Node, Cluster and Rack.",
      ),
    ]);
  });

  it("refuses grouping once for each target class that cannot be grouped", () => {
    const problems = problemsOf([
      {
        monitoredTargets: [
          { class: "VM" },
          { class: "VM", type: "Backend" },
          { class: "CloudProvider" },
          { class: "Method" },
        ],
      },
      aggregation("Sum", { groupingClass: "InternalComponent" }),
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining("cannot group VM by InternalComponent"),
      expect.stringContaining("cannot group CloudProvider by InternalComponent"),
    ]);
  });

  it("refuses a condition that does not parse, naming the position", () => {
    expect(problemsOf([{ condition: "METRIC > > 3" }])).toEqual([
      problem("/condition", 'The condition does not parse at position 10: expected a number or METRIC, found ">".'),
    ]);
  });

  it("refuses an empty condition", () => {
    expect(problemsOf([{ condition: "" }])).toEqual([
      problem(
        "/condition",
        "The condition does not parse at position 1: it is empty; expected a comparison such as METRIC > 2500.",
      ),
    ]);
  });

  it("refuses an OutputMetric without metric", () => {
    expect(problemsOf([action("OutputMetric", { value: "METRIC" })])).toEqual([
      problem("/actions/0/parameters/metric", "OutputMetric needs the parameter metric: the output metric's name."),
    ]);
  });

  it.each([
    ["with a slash", "a/b", 'metric name must not contain "/".'],
    ["that is empty", "", "metric name must not be empty."],
    ["with a control character", "bell\u0007", "metric name must not contain control characters."],
    ["of 257 characters", "x".repeat(257), "metric name must be at most 256 characters long."],
  ])("refuses an output metric name %s", (_case, metric, message) => {
    expect(problemsOf([action("OutputMetric", { metric })])).toEqual([
      problem("/actions/0/parameters/metric", message),
    ]);
  });

  it("accepts an output metric name of the longest length", () => {
    expect(compiled(action("OutputMetric", { metric: "x".repeat(256) })).outputMetric).toHaveLength(256);
  });

  it("refuses a collected metric name that is not a metric name", () => {
    expect(problemsOf([{ collectedMetric: { metricName: "Response/Time" } }])).toEqual([
      problem("/collectedMetric/metricName", 'metric name must not contain "/".'),
    ]);
  });

  it("refuses a RestCall rule whose id makes its calls metric an invalid name", () => {
    const result = compileRule(
      definition({ id: "a/b" }, action("RestCall", { url: "https://example.com/hook" })),
      [],
      openConfig,
    );
    expect(result.ok ? [] : result.problems).toEqual([
      {
        path: "/id",
        message: `Rule "a/b": a RestCall rule's calls go to the metric "tower.rule.a/b.calls": metric name must not contain "/".`,
      },
    ]);
  });

  it("refuses a custom resourceId together with a groupingClass", () => {
    expect(problemsOf([aggregation("Average", { groupingClass: "VM" }), output({ resourceId: "frontends" })])).toEqual([
      problem(
        "/actions/0/parameters/resourceId",
        'a custom resourceId ("frontends") cannot be combined with a groupingClass: each group is its own resource. Use ID.',
      ),
    ]);
  });

  it("refuses a resourceId longer than a datum's resourceId may be", () => {
    expect(compiled(output({ resourceId: "r".repeat(1_024) })).fixedResourceId).toHaveLength(1_024);
    expect(problemsOf([output({ resourceId: "r".repeat(1_025) })])).toEqual([
      problem("/actions/0/parameters/resourceId", "the resourceId must be at most 1024 characters."),
    ]);
  });

  it("refuses a blank resourceId", () => {
    expect(problemsOf([output({ resourceId: " " })])).toEqual([
      problem("/actions/0/parameters/resourceId", "the resourceId must be ID or a non-empty string."),
    ]);
  });

  it("refuses a value expression that does not parse, naming the position", () => {
    expect(problemsOf([output({ value: "SUM(METRIC" })])).toEqual([
      problem(
        "/actions/0/parameters/value",
        'The value does not parse at position 11: expected ")" after SUM(METRIC, found the end of the value.',
      ),
    ]);
  });

  it("refuses a value that names an unknown function", () => {
    expect(problemsOf([output({ value: "MEDIAN(METRIC)" })])).toEqual([
      problem(
        "/actions/0/parameters/value",
        'Unknown function "MEDIAN" at position 1; the value may use METRIC, numbers and AVG, SUM, COUNT, MIN, MAX, PERCENTILE(METRIC, p).',
      ),
    ]);
  });

  it("refuses the original's value ResponseTime, which names the metric instead of METRIC", () => {
    expect(problemsOf([output({ value: "ResponseTime" })])).toEqual([
      problem(
        "/actions/0/parameters/value",
        'Unknown name "ResponseTime" at position 1; the value may use METRIC, numbers and AVG, SUM, COUNT, MIN, MAX, PERCENTILE(METRIC, p).',
      ),
    ]);
  });

  it("refuses mixing the bare METRIC with aggregates without a metricAggregation", () => {
    expect(problemsOf([output({ value: "METRIC / COUNT(METRIC)" })])).toEqual([
      problem(
        "/actions/0/parameters/value",
        "without a metricAggregation, METRIC is each datum's value: it cannot be mixed with aggregates of the window such as SUM(METRIC).",
      ),
    ]);
  });

  it("accepts mixing METRIC with aggregates when METRIC is the aggregated value", () => {
    expect(compiled(aggregation("Max"), output({ value: "METRIC / COUNT(METRIC)" })).windowed).toBe(true);
  });

  it("refuses an unknown action", () => {
    expect(problemsOf([action("SendMail")])).toEqual([
      problem("/actions/0/name", 'unknown action "SendMail"; expected OutputMetric or RestCall.'),
    ]);
  });

  it.each([
    ["outputMetric", "OutputMetric"],
    ["OUTPUTMETRIC", "OutputMetric"],
    ["restCall", "RestCall"],
  ])("refuses the action %s and suggests %s", (name, hint) => {
    expect(problemsOf([action(name, { metric: "AverageResponseTime" })])).toEqual([
      problem("/actions/0/name", `unknown action "${name}"; did you mean ${hint}?`),
    ]);
  });

  it("refuses CloudMLCall as not supported", () => {
    expect(problemsOf([action("CloudMLCall", { command: "SCALE_OUT" })])).toEqual([
      problem(
        "/actions/0/name",
        "CloudMLCall (the original's deployment tool) is not supported; use OutputMetric or RestCall.",
      ),
    ]);
  });

  it("refuses a RestCall without url", () => {
    expect(problemsOf([action("RestCall", { method: "POST" })])).toEqual([
      problem("/actions/0/parameters/url", "RestCall needs the parameter url: where to send each output datum."),
    ]);
  });

  it.each(["PATCH", "HEAD", ""])("refuses a RestCall with the method %j", (method) => {
    expect(problemsOf([action("RestCall", { url: "https://example.com/hook", method })])).toEqual([
      problem("/actions/0/parameters/method", "the method must be one of GET, POST, PUT, DELETE."),
    ]);
  });

  it.each(["ftp://example.com/hook", "example.com/hook", "not a url", "mailto:ops@example.com"])(
    "refuses a RestCall to %j, which is not an http URL",
    (url) => {
      expect(problemsOf([action("RestCall", { url })])).toEqual([
        problem("/actions/0/parameters/url", "The url must be an absolute http or https URL."),
      ]);
    },
  );

  it.each(["http://127.0.0.1:8170/v1/hook", "http://10.1.2.3/hook", "http://localhost:8080/", "http://metadata/"])(
    "refuses a RestCall to the private address %s unless private destinations are allowed",
    (url) => {
      const problems = problemsOf([action("RestCall", { url })], { config: publicOnlyConfig });
      expect(problems).toHaveLength(1);
      expect(problems[0]?.path).toBe("/actions/0/parameters/url");
      expect(problems[0]?.message).toMatch(/^Rule "r": The url must be a public destination: .+\.$/);
      expect(problems[0]?.message).not.toContain("callbackUrl");
      expect(compileRule(definition(action("RestCall", { url })), [], openConfig).ok).toBe(true);
    },
  );

  it("accepts a RestCall to a public address when private destinations are not allowed", () => {
    expect(
      compileRule(definition(action("RestCall", { url: "https://example.com/hook" })), [], publicOnlyConfig).ok,
    ).toBe(true);
  });

  it("refuses the unknown parameters of an OutputMetric", () => {
    expect(problemsOf([output({ url: "https://example.com/", unit: "ms" })])).toEqual([
      problem(
        "/actions/0/parameters/url",
        'unknown parameter "url" of OutputMetric; it takes metric, resourceId, value.',
      ),
      problem(
        "/actions/0/parameters/unit",
        'unknown parameter "unit" of OutputMetric; it takes metric, resourceId, value.',
      ),
    ]);
  });

  it("refuses the unknown parameters of a RestCall", () => {
    expect(problemsOf([action("RestCall", { url: "https://example.com/hook", metric: "Calls" })])).toEqual([
      problem("/actions/0/parameters/metric", 'unknown parameter "metric" of RestCall; it takes url, method.'),
    ]);
  });

  it("reports every problem of a rule at once, each under the rule's own pointer", () => {
    const problems = problemsOf(
      [
        { timeStep: 90, timeWindow: 30, condition: "METRIC >", collectedMetric: { metricName: "a/b" } },
        { monitoredTargets: [{ class: "Server" }] },
        aggregation("Percentile", { groupingClass: "Component", thPercentile: "200" }),
        action("OutputMetric", { metric: "x/y", value: "(", resourceId: "" }),
      ],
      { at: ["monitoringRules", 2] },
    );
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        "/monitoringRules/2/timeStep",
        "/monitoringRules/2/collectedMetric/metricName",
        "/monitoringRules/2/monitoredTargets/0/class",
        "/monitoringRules/2/metricAggregation/parameters/thPercentile",
        "/monitoringRules/2/metricAggregation/groupingClass",
        "/monitoringRules/2/condition",
        "/monitoringRules/2/actions/0/parameters/metric",
        "/monitoringRules/2/actions/0/parameters/resourceId",
        "/monitoringRules/2/actions/0/parameters/value",
      ].sort(),
    );
    for (const { message } of problems) expect(message).toMatch(/^Rule "r": /);
  });

  it("escapes the pointer prefix it is given", () => {
    expect(problemsOf([{ timeStep: 90, timeWindow: 30 }], { at: ["rules/all", "a~b"] })[0]?.path).toBe(
      "/rules~1all/a~0b/timeStep",
    );
  });
});

describe("compileRule: compiled rules", () => {
  it("passes each datum through when there is neither an aggregation nor an aggregate in the value", () => {
    const definitionOfRule = definition({ condition: "METRIC > 2500.0" });
    const result = compileRule(definitionOfRule, ["monitoringRules", 0], openConfig);
    expect(result.ok).toBe(true);
    const rule = result.ok ? result.rule : undefined;
    expect(rule).toMatchObject({ id: "r", windowed: false, keepsValues: false, outputMetric: "AverageResponseTime" });
    expect(rule?.definition).toBe(definitionOfRule);
    expect(rule).not.toHaveProperty("aggregate");
    expect(rule).not.toHaveProperty("groupingClass");
    expect(rule).not.toHaveProperty("fixedResourceId");
    expect(rule).not.toHaveProperty("restCall");
    expect(rule?.value.usesBareMetric).toBe(true);
    expect(rule?.value.evaluate(42, () => Number.NaN)).toBe(42);
    expect(rule?.condition?.holds(2500.5)).toBe(true);
    expect(rule?.condition?.holds(2500)).toBe(false);
  });

  it("aggregates over windows with a metricAggregation", () => {
    const rule = compiled(aggregation("Average", { groupingClass: "VM" }));
    expect(rule).toMatchObject({
      windowed: true,
      aggregate: { fn: "Average" },
      groupingClass: "VM",
      keepsValues: false,
    });
    expect(rule.aggregate).not.toHaveProperty("percentile");
  });

  it("aggregates over windows when only the value holds aggregates", () => {
    const rule = compiled(output({ value: "SUM(METRIC)/COUNT(METRIC)", resourceId: "AllMethods" }));
    expect(rule).toMatchObject({ windowed: true, keepsValues: false, fixedResourceId: "AllMethods" });
    expect(rule).not.toHaveProperty("aggregate");
    expect(rule.value.aggregates).toEqual([{ fn: "SUM" }, { fn: "COUNT" }]);
  });

  it.each(["0", "100", "95", " 99.9 "])("keeps the values of windows for a Percentile of %j", (thPercentile) => {
    const rule = compiled(aggregation("Percentile", { thPercentile }));
    expect(rule).toMatchObject({
      keepsValues: true,
      aggregate: { fn: "Percentile", percentile: Number(thPercentile) },
    });
  });

  it("keeps the values of windows for a PERCENTILE in the value", () => {
    expect(compiled(aggregation("Average"), output({ value: "PERCENTILE(METRIC, 95) - METRIC" })).keepsValues).toBe(
      true,
    );
    expect(compiled(output({ value: "PERCENTILE(METRIC, 50)" })).keepsValues).toBe(true);
  });

  it("keeps no values when no percentile is asked for", () => {
    expect(compiled(aggregation("Max"), output({ value: "MAX(METRIC) - MIN(METRIC) + AVG(METRIC)" })).keepsValues).toBe(
      false,
    );
  });

  it("names each group or datum by its own id when the resourceId is ID", () => {
    expect(compiled(output({ resourceId: "ID" }))).not.toHaveProperty("fixedResourceId");
    expect(
      compiled(aggregation("Sum", { groupingClass: "CloudProvider" }), output({ resourceId: "ID" })),
    ).toMatchObject({
      groupingClass: "CloudProvider",
    });
  });

  it("fixes a custom resourceId without grouping, with or without aggregation", () => {
    expect(compiled(output({ resourceId: "frontends" })).fixedResourceId).toBe("frontends");
    expect(compiled(aggregation("Sum"), output({ resourceId: "frontends" })).fixedResourceId).toBe("frontends");
  });

  it("sends a RestCall's calls to its calls metric, with the method in upper case", () => {
    const rule = compiled(action("RestCall", { url: "https://example.com/v1/rules/r", method: "delete" }));
    expect(rule).toMatchObject({
      outputMetric: restCallMetric("r"),
      restCall: { url: "https://example.com/v1/rules/r", method: "DELETE" },
    });
    expect(restCallMetric("r")).toBe("tower.rule.r.calls");
    expect(rule).not.toHaveProperty("fixedResourceId");
  });

  it("posts a RestCall's calls unless told otherwise", () => {
    expect(compiled(action("RestCall", { url: "https://example.com/hook" })).restCall).toEqual({
      url: "https://example.com/hook",
      method: "POST",
    });
  });

  it.each(["GET", "POST", "PUT", "DELETE"])("accepts the RestCall method %s", (method) => {
    expect(compiled(action("RestCall", { url: "https://example.com/hook", method })).restCall?.method).toBe(method);
  });

  it("keeps the RestCall url in the form the service sends to", () => {
    expect(compiled(action("RestCall", { url: "HTTPS://Example.COM" })).restCall?.url).toBe("https://example.com/");
  });

  it.each(Object.entries(validOriginalDocuments))("compiles every rule of the original's example %s", (_name, xml) => {
    const reading = readRulesXml(xml);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
    const document = rulesDocumentSchema.parse(reading.document);
    expect(document.monitoringRules.length).toBeGreaterThan(0);
    document.monitoringRules.forEach((rule, index) => {
      const result = compileRule(rule, ["monitoringRules", index], openConfig);
      expect(result.ok ? [] : result.problems).toEqual([]);
    });
  });
});
