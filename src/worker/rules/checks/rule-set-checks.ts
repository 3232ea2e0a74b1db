import type { FieldProblem } from "../../../shared/problems";
import { jsonPointer } from "../../../shared/problems";
import { cycleWalks } from "./cycle-walks";

/** What the checks across rules need of a rule: its id, the metric it reads and the one it writes. */
export interface RuleEdge {
  id: string;
  reads: string;
  writes: string;
}

/**
 * The problems of installing `incoming` (rules of a document, at /monitoringRules/<index>) beside
 * `installed`: an id used twice, a metric written by two rules, and rules that would feed each
 * other in a cycle (a rule's output reaching, through other rules, the metric it reads).
 */
export function ruleSetProblems(incoming: readonly RuleEdge[], installed: readonly RuleEdge[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const at = (index: number, ...path: PropertyKey[]) => jsonPointer(["monitoringRules", index, ...path]);
  const installedIds = new Set(installed.map((rule) => rule.id));
  const writerOf = new Map(installed.map((rule) => [rule.writes, rule.id]));
  const firstIndexOfId = new Map<string, number>();

  incoming.forEach((rule, index) => {
    if (installedIds.has(rule.id)) {
      problems.push({ path: at(index, "id"), message: `Rule "${rule.id}" is already installed; delete it first.` });
    }
    const earlier = firstIndexOfId.get(rule.id);
    if (earlier === undefined) firstIndexOfId.set(rule.id, index);
    else problems.push({ path: at(index, "id"), message: `Rule "${rule.id}" is also at /monitoringRules/${earlier}.` });
    const writer = writerOf.get(rule.writes);
    if (writer !== undefined && writer !== rule.id) {
      problems.push({
        path: at(index, "actions", 0, "parameters", "metric"),
        message: `Rule "${rule.id}": the metric "${rule.writes}" is already produced by rule "${writer}"; a metric has one producing rule.`,
      });
    } else {
      writerOf.set(rule.writes, rule.id);
    }
  });

  const steps = [...installed, ...incoming].map((rule) => ({ from: rule.reads, to: rule.writes }));
  const walks = cycleWalks(
    steps,
    incoming.map((_, index) => installed.length + index),
  );
  incoming.forEach((rule, index) => {
    const cycle = walks[index];
    if (cycle) {
      problems.push({
        path: at(index, "collectedMetric", "metricName"),
        message: `Rule "${rule.id}" is part of a cycle: ${cycle.join(" → ")}.`,
      });
    }
  });
  return problems;
}
