import type { Rule } from "./api-types";

/** The metric a rule outputs to, for an OutputMetric rule. */
export function outputMetricOf(rule: Rule): string | undefined {
  const [action] = rule.actions;
  return action?.name === "OutputMetric" ? action.parameters.metric : undefined;
}

/** What a rule computes, in words: "Average per VM", "Percentile 95 over all", "each datum". */
export function aggregationOf(rule: Rule): string {
  const aggregation = rule.metricAggregation;
  if (!aggregation) return "each datum as it comes";
  const percentile = aggregation.parameters?.thPercentile;
  const what = percentile ? `${aggregation.aggregateFunction} ${percentile}` : aggregation.aggregateFunction;
  return `${what} per ${aggregation.groupingClass ?? "window"}`;
}
