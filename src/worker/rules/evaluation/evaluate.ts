import { type Datum, type SeriesLabels, seriesLabels } from "../../vocabulary/datum";
import {
  type Accumulator,
  aggregateValue,
  callValue,
  mergeAccumulators,
  newAccumulator,
} from "../aggregation/accumulator";
import type { ModelSnapshot } from "../targeting/model-snapshot";
import type { CompiledRule } from "./compile-rule";

/** The resourceId of output data that aggregate a window without grouping. */
export const allResources = "ALL";

/**
 * Output datum ids are derived from the rule, the window and the group, so evaluating a window
 * again (after a crash between sending its output and recording it) gives the same ids, and a
 * receiver can drop the repeat.
 */
export function windowOutputId(ruleId: string, windowEnd: number, group: string): string {
  return `${ruleId}/${windowEnd}/${group}`;
}

/**
 * One closed window's output: the accumulators of its resources, kept to those the rule's targets
 * select in the model as it is now, merged into groups; one datum per group that passes the
 * condition. Groups come out in id order, so an evaluation is repeatable.
 */
export function evaluateWindow(
  rule: CompiledRule,
  model: ModelSnapshot,
  byResource: ReadonlyMap<string, Accumulator>,
  windowEnd: number,
): Datum[] {
  const targets = rule.definition.monitoredTargets;
  const groups = new Map<string, Accumulator>();
  for (const [resourceId, accumulator] of byResource) {
    if (!model.selects(targets, resourceId)) continue;
    const keys = rule.groupingClass ? model.groupsOf(resourceId, rule.groupingClass) : [allResources];
    for (const key of keys) {
      let group = groups.get(key);
      if (!group) {
        group = newAccumulator(rule.keepsValues);
        groups.set(key, group);
      }
      mergeAccumulators(group, accumulator);
    }
  }
  const output: Datum[] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    if (group.count === 0) continue;
    const aggregated = rule.aggregate
      ? aggregateValue(group, rule.aggregate.fn, rule.aggregate.percentile)
      : Number.NaN;
    const value = rule.value.evaluate(aggregated, (call) => callValue(group, call));
    if (rule.condition && !rule.condition.holds(rule.aggregate ? aggregated : value)) continue;
    output.push({
      id: windowOutputId(rule.id, windowEnd, key),
      metric: rule.outputMetric,
      timestamp: windowEnd,
      value,
      resourceId: rule.fixedResourceId ?? key,
    });
  }
  return output;
}

/**
 * A rule without windows: each datum of a selected resource that passes the condition is output
 * on its own, with its own timestamp and an agent's datum with its labels: the same pairs (and
 * resource attribute), but no line, which names the metric and type the datum came as, not those
 * of the output. A custom resourceId replaces the series': the output then has no labels, which
 * would name the series instead of it.
 */
export function passThrough(rule: CompiledRule, model: ModelSnapshot, data: readonly Datum[]): Datum[] {
  const output: Datum[] = [];
  // The labels of the output by the input's, so that the output of a series shares them as the input did.
  const outputLabels = new Map<SeriesLabels, SeriesLabels>();
  for (const datum of data) {
    if (!model.selects(rule.definition.monitoredTargets, datum.resourceId)) continue;
    if (rule.condition && !rule.condition.holds(datum.value)) continue;
    const passed: Datum = {
      id: `${rule.id}/${datum.id}`,
      metric: rule.outputMetric,
      timestamp: datum.timestamp,
      value: rule.value.evaluate(datum.value, () => Number.NaN),
      resourceId: rule.fixedResourceId ?? datum.resourceId,
    };
    const { labels } = datum;
    if (labels !== undefined && rule.fixedResourceId === undefined) {
      let kept = outputLabels.get(labels);
      if (kept === undefined) {
        kept = labels.line === undefined ? labels : seriesLabels(labels.pairs, undefined, labels.resourceAttribute);
        outputLabels.set(labels, kept);
      }
      passed.labels = kept;
    }
    output.push(passed);
  }
  return output;
}
