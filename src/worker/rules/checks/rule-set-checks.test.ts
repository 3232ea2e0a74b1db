import { describe, expect, it } from "vitest";
import { type RuleEdge, ruleSetProblems } from "./rule-set-checks";

function rule(id: string, reads: string, writes: string): RuleEdge {
  return { id, reads, writes };
}

const avg = rule("avg", "ResponseTime", "AverageResponseTime");
const violated = rule("violated", "AverageResponseTime", "ViolatedAvgResponseTime");
const perMinute = rule("perMinute", "ResponseTime", "RequestPerMinute");

describe("ruleSetProblems", () => {
  it("finds nothing wrong with independent rules", () => {
    expect(ruleSetProblems([avg, perMinute], [])).toEqual([]);
  });

  it("finds nothing wrong with a chain of rules, within the document or onto installed ones", () => {
    expect(ruleSetProblems([avg, violated, perMinute], [])).toEqual([]);
    expect(ruleSetProblems([violated], [avg, perMinute])).toEqual([]);
    expect(ruleSetProblems([avg], [violated])).toEqual([]);
    expect(ruleSetProblems([rule("a", "m0", "m1"), rule("b", "m1", "m2"), rule("c", "m2", "m3")], [])).toEqual([]);
  });

  it("lets several rules read the same metric", () => {
    expect(ruleSetProblems([avg, perMinute, rule("max", "ResponseTime", "MaxResponseTime")], [])).toEqual([]);
  });

  it("refuses an id used twice in the document, at the second rule", () => {
    expect(ruleSetProblems([avg, rule("avg", "CpuUtilization", "AverageCpu")], [])).toEqual([
      { path: "/monitoringRules/1/id", message: 'Rule "avg" is also at /monitoringRules/0.' },
    ]);
  });

  it("names the first rule of an id used three times", () => {
    const problems = ruleSetProblems(
      [rule("x", "a", "b"), rule("y", "c", "d"), rule("x", "e", "f"), rule("x", "g", "h")],
      [],
    );
    expect(problems).toEqual([
      { path: "/monitoringRules/2/id", message: 'Rule "x" is also at /monitoringRules/0.' },
      { path: "/monitoringRules/3/id", message: 'Rule "x" is also at /monitoringRules/0.' },
    ]);
  });

  it("refuses an id already installed", () => {
    expect(ruleSetProblems([perMinute, rule("avg", "CpuUtilization", "AverageCpu")], [avg])).toEqual([
      { path: "/monitoringRules/1/id", message: 'Rule "avg" is already installed; delete it first.' },
    ]);
  });

  it("refuses an output metric an installed rule already produces", () => {
    expect(ruleSetProblems([rule("avg2", "ResponseTime", "AverageResponseTime")], [avg])).toEqual([
      {
        path: "/monitoringRules/0/actions/0/parameters/metric",
        message:
          'Rule "avg2": the metric "AverageResponseTime" is already produced by rule "avg"; a metric has one producing rule.',
      },
    ]);
  });

  it("refuses an output metric an earlier rule of the document produces", () => {
    expect(ruleSetProblems([perMinute, avg, rule("avg2", "CpuUtilization", "AverageResponseTime")], [])).toEqual([
      {
        path: "/monitoringRules/2/actions/0/parameters/metric",
        message:
          'Rule "avg2": the metric "AverageResponseTime" is already produced by rule "avg"; a metric has one producing rule.',
      },
    ]);
  });

  it("names the first producer of a metric three rules write", () => {
    const problems = ruleSetProblems([rule("a", "m", "out"), rule("b", "m", "out"), rule("c", "m", "out")], []);
    expect(problems.map((problem) => [problem.path, problem.message])).toEqual([
      ["/monitoringRules/1/actions/0/parameters/metric", expect.stringContaining('already produced by rule "a"')],
      ["/monitoringRules/2/actions/0/parameters/metric", expect.stringContaining('already produced by rule "a"')],
    ]);
  });

  it("refuses a rule that reads its own output", () => {
    expect(ruleSetProblems([rule("loop", "Load", "Load")], [])).toEqual([
      {
        path: "/monitoringRules/0/collectedMetric/metricName",
        message: 'Rule "loop" is part of a cycle: Load → Load.',
      },
    ]);
  });

  it("refuses a cycle of two rules, at each of them", () => {
    expect(ruleSetProblems([rule("ab", "A", "B"), rule("ba", "B", "A")], [])).toEqual([
      { path: "/monitoringRules/0/collectedMetric/metricName", message: 'Rule "ab" is part of a cycle: A → B → A.' },
      { path: "/monitoringRules/1/collectedMetric/metricName", message: 'Rule "ba" is part of a cycle: B → A → B.' },
    ]);
  });

  it("refuses a cycle of three rules, at each of them", () => {
    const problems = ruleSetProblems([rule("ab", "A", "B"), rule("bc", "B", "C"), rule("ca", "C", "A")], []);
    expect(problems).toEqual([
      {
        path: "/monitoringRules/0/collectedMetric/metricName",
        message: 'Rule "ab" is part of a cycle: A → B → C → A.',
      },
      {
        path: "/monitoringRules/1/collectedMetric/metricName",
        message: 'Rule "bc" is part of a cycle: B → C → A → B.',
      },
      {
        path: "/monitoringRules/2/collectedMetric/metricName",
        message: 'Rule "ca" is part of a cycle: C → A → B → C.',
      },
    ]);
  });

  it("refuses a rule that closes a cycle through installed rules, at the new rule only", () => {
    const installed = [rule("ab", "A", "B"), rule("bc", "B", "C")];
    expect(ruleSetProblems([rule("ca", "C", "A")], installed)).toEqual([
      {
        path: "/monitoringRules/0/collectedMetric/metricName",
        message: 'Rule "ca" is part of a cycle: C → A → B → C.',
      },
    ]);
  });

  it("does not blame a rule that reads from a cycle without feeding it", () => {
    const problems = ruleSetProblems([rule("ab", "A", "B"), rule("ba", "B", "A"), rule("drain", "B", "Out")], []);
    expect(problems.map((problem) => problem.path)).toEqual([
      "/monitoringRules/0/collectedMetric/metricName",
      "/monitoringRules/1/collectedMetric/metricName",
    ]);
  });

  it("finds a cycle behind a branch that leads nowhere", () => {
    const problems = ruleSetProblems(
      [rule("ab", "A", "B"), rule("bDead", "B", "Dead"), rule("bc", "B", "C"), rule("ca", "C", "A")],
      [],
    );
    expect(problems.map((problem) => problem.message)).toEqual([
      'Rule "ab" is part of a cycle: A → B → C → A.',
      'Rule "bc" is part of a cycle: B → C → A → B.',
      'Rule "ca" is part of a cycle: C → A → B → C.',
    ]);
  });

  it("refuses every rule of a long cycle, each shown by the ends of its walk", () => {
    const length = 5_000;
    const rules = Array.from({ length }, (_, index) => rule(`r${index}`, `m${index}`, `m${(index + 1) % length}`));
    const problems = ruleSetProblems(rules, []);
    expect(problems).toHaveLength(length);
    expect(problems[0]!.message).toBe('Rule "r0" is part of a cycle: m0 → m1 → m2 → m3 → m4 → … → m0.');
    expect(problems.every((problem) => problem.message.length < 200)).toBe(true);
  });

  it("finds a cycle closed by one rule through a long chain of installed rules", () => {
    const length = 5_000;
    const chain = Array.from({ length }, (_, index) => rule(`r${index}`, `m${index}`, `m${index + 1}`));
    expect(ruleSetProblems([rule("back", `m${length}`, "m0")], chain)).toEqual([
      {
        path: "/monitoringRules/0/collectedMetric/metricName",
        message: `Rule "back" is part of a cycle: m${length} → m0 → m1 → m2 → m3 → … → m${length}.`,
      },
    ]);
  });

  it("reports every problem of a rule together", () => {
    const installed = [rule("dup", "X", "Y"), rule("producer", "P", "Load")];
    expect(ruleSetProblems([rule("dup", "Load", "Load")], installed)).toEqual([
      { path: "/monitoringRules/0/id", message: 'Rule "dup" is already installed; delete it first.' },
      {
        path: "/monitoringRules/0/actions/0/parameters/metric",
        message:
          'Rule "dup": the metric "Load" is already produced by rule "producer"; a metric has one producing rule.',
      },
      { path: "/monitoringRules/0/collectedMetric/metricName", message: 'Rule "dup" is part of a cycle: Load → Load.' },
    ]);
  });
});
