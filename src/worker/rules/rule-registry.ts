import { DurableObject } from "cloudflare:workers";
import type { FieldProblem } from "../../shared/problems";
import { OneAtATime } from "../common/one-at-a-time";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { readConfig } from "../config";
import { metricStub } from "../metrics/metric-object";
import { type RuleEdge, ruleSetProblems } from "./checks/rule-set-checks";
import type { InstalledRule, RuleDefinition } from "./document/rule-schema";
import { type CompiledRule, compileRule } from "./evaluation/compile-rule";
import { ruleStub } from "./rule-object";

export type RuleInstallation = { ok: true } | { ok: false; problems: FieldProblem[] };

/** What an installed rule asks of the data collectors, and what it gives back. */
export interface RuleCollection {
  /** The metric the rule reads, with the parameters its collectors are handed. */
  collectedMetric: RuleDefinition["collectedMetric"];
  monitoredTargets: RuleDefinition["monitoredTargets"];
  /** The metric the rule writes. */
  outputMetric: string;
}

/** The registry's schema steps, numbered from 1 in this order. */
const schemaSteps: SchemaSteps = [
  `CREATE TABLE rule (
     id TEXT PRIMARY KEY,
     definition TEXT NOT NULL,
     enabled INTEGER NOT NULL
   );`,
];

type RuleRow = { id: string; definition: string; enabled: number };

function installed(row: RuleRow): InstalledRule {
  return { ...(JSON.parse(row.definition) as RuleDefinition), enabled: Boolean(row.enabled) };
}

/**
 * The installed rules (one instance, off the data path): their definitions and enabled state, the
 * checks across rules (ids, output metrics, cycles), and the wiring of each rule into the objects
 * on the data path: the metric it reads lists it as a reader, the metric it writes is declared,
 * and its own object holds its definition. Installations, changes and removals run one at a time,
 * because they wait on those objects.
 */
export class RuleRegistry extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly changes = new OneAtATime();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrateSchema(ctx.storage, schemaSteps);
  }

  /** Installs every rule of a document, or none: the problems across rules are listed instead. */
  install(definitions: RuleDefinition[]): Promise<RuleInstallation> {
    return this.changes.run(async () => {
      const compiled = definitions.map((definition) => this.compile(definition));
      const incoming = compiled.map(edgeOf);
      const problems = ruleSetProblems(
        incoming,
        this.rows().map((row) => edgeOf(this.compile(JSON.parse(row.definition)))),
      );
      if (problems.length > 0) return { ok: false, problems };
      try {
        await Promise.all(compiled.map((rule) => wire(this.env, rule)));
      } catch (error) {
        await Promise.allSettled(compiled.map((rule) => unwire(this.env, rule)));
        throw error;
      }
      this.ctx.storage.transactionSync(() => {
        for (const rule of compiled) {
          this.sql.exec(
            "INSERT INTO rule (id, definition, enabled) VALUES (?, ?, ?)",
            rule.id,
            JSON.stringify(rule.definition),
            rule.definition.startEnabled ? 1 : 0,
          );
        }
      });
      return { ok: true };
    });
  }

  list(): InstalledRule[] {
    return this.rows().map(installed);
  }

  get(id: string): InstalledRule | null {
    const row = this.sql.exec<RuleRow>("SELECT id, definition, enabled FROM rule WHERE id = ?", id).toArray()[0];
    return row ? installed(row) : null;
  }

  /**
   * What every installed rule, enabled or not, collects and produces: the data collectors'
   * configurations follow the installed rules, not whether each runs now.
   */
  collections(): RuleCollection[] {
    return this.rows().map((row) => {
      const rule = this.compile(JSON.parse(row.definition));
      const { collectedMetric, monitoredTargets } = rule.definition;
      return { collectedMetric, monitoredTargets, outputMetric: rule.outputMetric };
    });
  }

  /** Enables or disables a rule; null if there is no such rule. */
  setEnabled(id: string, enabled: boolean): Promise<InstalledRule | null> {
    return this.changes.run(async () => {
      const rule = this.get(id);
      if (!rule) return null;
      const reader = metricStub(this.env, rule.collectedMetric.metricName);
      await ruleStub(this.env, id).setEnabled(enabled);
      if (enabled) await reader.addRuleReader(rule.collectedMetric.metricName, id);
      else await reader.removeRuleReader(id);
      this.sql.exec("UPDATE rule SET enabled = ? WHERE id = ?", enabled ? 1 : 0, id);
      return { ...rule, enabled };
    });
  }

  /** Removes a rule with its state; false if there is no such rule. */
  remove(id: string): Promise<boolean> {
    return this.changes.run(async () => {
      const rule = this.get(id);
      if (!rule) return false;
      const compiled = this.compile(rule);
      await unwire(this.env, compiled);
      // The output metric stays, as a declared metric, but what observed the rule's output goes.
      if (!compiled.restCall) await metricStub(this.env, compiled.outputMetric).removeObservers();
      this.sql.exec("DELETE FROM rule WHERE id = ?", id);
      return true;
    });
  }

  /** The model changed: every rule reads it again before its next evaluation. */
  async modelChanged(): Promise<void> {
    await Promise.all(this.rows().map((row) => ruleStub(this.env, row.id).modelChanged()));
  }

  private compile(definition: RuleDefinition): CompiledRule {
    const compiled = compileRule(definition, [], readConfig(this.env));
    if (!compiled.ok) throw new Error(`rule ${definition.id} does not compile: ${compiled.problems[0]?.message}`);
    return compiled.rule;
  }

  private rows(): RuleRow[] {
    return this.sql.exec<RuleRow>("SELECT id, definition, enabled FROM rule ORDER BY rowid").toArray();
  }
}

function edgeOf(rule: CompiledRule): RuleEdge {
  return { id: rule.id, reads: rule.definition.collectedMetric.metricName, writes: rule.outputMetric };
}

/** Declares the rule's output metric (with the REST call's observer), gives the rule its definition, and lists it as a reader. */
async function wire(env: Env, rule: CompiledRule): Promise<void> {
  const output = metricStub(env, rule.outputMetric);
  await output.ensureMetric(rule.outputMetric);
  if (rule.restCall) await output.attachRestCall(rule.restCall);
  const enabled = rule.definition.startEnabled;
  await ruleStub(env, rule.id).install(rule.definition, enabled);
  const reads = rule.definition.collectedMetric.metricName;
  if (enabled) await metricStub(env, reads).addRuleReader(reads, rule.id);
}

/** Undoes `wire`: the rule stops being read, its state goes, and so does a RestCall rule's calls metric. */
async function unwire(env: Env, rule: CompiledRule): Promise<void> {
  await metricStub(env, rule.definition.collectedMetric.metricName).removeRuleReader(rule.id);
  await ruleStub(env, rule.id).remove();
  if (rule.restCall) await metricStub(env, rule.outputMetric).deleteMetric();
}

/** The one registry of the service. */
export function ruleRegistry(env: Env): DurableObjectStub<RuleRegistry> {
  return countingRequests(env.RULE_REGISTRY.getByName("rules"), "RULE_REGISTRY");
}
