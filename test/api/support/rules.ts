import type { z } from "zod";
import { readConfig } from "../../../src/worker/config";
import { type RuleDefinition, ruleSchema } from "../../../src/worker/rules/document/rule-schema";
import { type CompiledRule, compileRule } from "../../../src/worker/rules/evaluation/compile-rule";

/** Fields of a rule in the JSON form, to override those of the test rule. */
export type RuleFields = Partial<z.input<typeof ruleSchema>>;

/** Local development's settings: private destinations allowed. */
export const openConfig = readConfig({ AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true" });

/** A rule "r" reading ResponseTime of every Method into AverageResponseTime each minute, with `fields` over it. */
export function ruleDefinition(...fields: RuleFields[]): RuleDefinition {
  return ruleSchema.parse(
    Object.assign(
      {
        id: "r",
        timeStep: 60,
        timeWindow: 60,
        monitoredTargets: [{ class: "Method" }],
        collectedMetric: { metricName: "ResponseTime" },
        actions: [{ name: "OutputMetric", parameters: { metric: "AverageResponseTime" } }],
      },
      ...fields,
    ),
  );
}

export function compiledRule(...fields: RuleFields[]): CompiledRule {
  const result = compileRule(ruleDefinition(...fields), [], openConfig);
  if (!result.ok) throw new Error(`the rule does not compile: ${JSON.stringify(result.problems)}`);
  return result.rule;
}

export function aggregation(aggregateFunction: string, more: { groupingClass?: string; thPercentile?: string } = {}) {
  const { groupingClass, thPercentile } = more;
  return {
    metricAggregation: {
      aggregateFunction,
      ...(groupingClass === undefined ? {} : { groupingClass }),
      ...(thPercentile === undefined ? {} : { parameters: { thPercentile } }),
    },
  } satisfies RuleFields;
}
