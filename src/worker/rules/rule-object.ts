import { DurableObject } from "cloudflare:workers";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { readConfig } from "../config";
import { encodeIntakeMessages, rowsToData, sendMessages } from "../intake/queue-message";
import { knowledgeBase } from "../model/knowledge-base";
import type { Datum, DatumRow } from "../vocabulary/datum";
import { type Accumulator, addToAccumulator, newAccumulator } from "./aggregation/accumulator";
import type { RuleDefinition } from "./document/rule-schema";
import { type CompiledRule, compileRule } from "./evaluation/compile-rule";
import { evaluateWindow, passThrough } from "./evaluation/evaluate";
import type { RuleStatus } from "./rule-view-schema";
import { ModelSnapshot } from "./targeting/model-snapshot";
import { PaneStore, paneSchema } from "./windows/pane-store";
import { WindowClock } from "./windows/window-clock";

/** One queue message's share of a batch for the rule's metric; its id makes a repeated delivery harmless. */
export interface FedMessage {
  messageId: string;
  rows: DatumRow[];
}

export type FeedOutcome = "fed" | "unknown-rule";

/** How long a message id is remembered: longer than the queue keeps retrying a message. */
const rememberMessagesMs = 24 * 3_600_000;
/** When an evaluation failed (e.g. the knowledge base could not be read), how soon it is tried again. */
const retryEvaluationMs = 5_000;

/** The rule's own tables: its definition and status, and the messages it was fed lately. */
const ruleSchema = `
  CREATE TABLE rule (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    definition TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    closed_through INTEGER NOT NULL DEFAULT 0,
    windows_evaluated INTEGER NOT NULL DEFAULT 0,
    data_read INTEGER NOT NULL DEFAULT 0,
    data_emitted INTEGER NOT NULL DEFAULT 0,
    data_late INTEGER NOT NULL DEFAULT 0,
    last_evaluation_at INTEGER,
    last_error TEXT
  );
  CREATE TABLE fed_message (id TEXT PRIMARY KEY, at INTEGER NOT NULL);
  CREATE INDEX fed_message_by_age ON fed_message (at);
`;

/** A rule object's schema steps, numbered from 1 in this order: its own tables', then its panes'. */
const schemaSteps: SchemaSteps = [ruleSchema, paneSchema];

type RuleRow = {
  definition: string;
  enabled: number;
  closed_through: number;
  windows_evaluated: number;
  data_read: number;
  data_emitted: number;
  data_late: number;
  last_evaluation_at: number | null;
  last_error: string | null;
};

/**
 * One monitoring rule (one object per rule id): its definition, the accumulators of its open
 * windows, and its status. The intake consumer feeds it once per batch with the data of the metric
 * it reads; its alarm closes windows when the clock passes their end plus the allowed lateness, and
 * the output goes onto the intake queue as data of the output metric, like any other data. State
 * is on disk at every step, so a restart loses no window.
 */
export class RuleObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly panes: PaneStore;
  private compiled?: { definition: string; rule: CompiledRule; clock: WindowClock };
  /** The model as of the last change the registry reported; read again after the next one. */
  private model?: ModelSnapshot;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrateSchema(ctx.storage, schemaSteps);
    this.panes = new PaneStore(this.sql);
  }

  /** Installs the rule with a fresh state (a rule installed again under an id starts over). */
  async install(definition: RuleDefinition, enabled: boolean): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.clearState();
      this.sql.exec(
        "INSERT INTO rule (singleton, definition, enabled, closed_through) VALUES (1, ?, ?, ?)",
        JSON.stringify(definition),
        enabled ? 1 : 0,
        new WindowClock(definition).lastClosedEnd(Date.now()),
      );
    });
    this.compiled = undefined;
    await this.ctx.storage.deleteAlarm();
  }

  /** A disabled rule keeps nothing: its open windows are dropped, and it starts afresh when enabled. */
  async setEnabled(enabled: boolean): Promise<void> {
    const row = this.row();
    if (!row || Boolean(row.enabled) === enabled) return;
    const { clock } = this.rule(row);
    this.ctx.storage.transactionSync(() => {
      this.panes.clear();
      this.sql.exec(
        "UPDATE rule SET enabled = ?, closed_through = ?",
        enabled ? 1 : 0,
        clock.lastClosedEnd(Date.now()),
      );
    });
    await this.ctx.storage.deleteAlarm();
  }

  async remove(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    this.ctx.storage.transactionSync(() => this.clearState());
    this.compiled = undefined;
  }

  private clearState(): void {
    this.panes.clear();
    this.sql.exec("DELETE FROM fed_message");
    this.sql.exec("DELETE FROM rule");
  }

  /** The model changed: the next evaluation reads it again. */
  modelChanged(): void {
    this.model = undefined;
  }

  status(): RuleStatus | null {
    const row = this.row();
    if (!row) return null;
    return {
      enabled: Boolean(row.enabled),
      windowsEvaluated: row.windows_evaluated,
      dataRead: row.data_read,
      dataEmitted: row.data_emitted,
      dataLate: row.data_late,
      lastEvaluationAt: row.last_evaluation_at === null ? null : new Date(row.last_evaluation_at).toISOString(),
      lastError: row.last_error,
    };
  }

  /**
   * A batch's data of the metric the rule reads. Messages seen before (the queue delivers at least
   * once) are skipped, so no datum counts twice. Windowed rules only accumulate here; a rule
   * without windows sends its output before the messages are recorded as seen.
   */
  async feed(metric: string, messages: readonly FedMessage[]): Promise<FeedOutcome> {
    const row = this.row();
    if (!row) return "unknown-rule";
    if (!row.enabled) return "fed";
    const fresh = messages.filter(({ messageId }) => !this.seen(messageId));
    if (fresh.length === 0) return "fed";
    const now = Date.now();
    const { rule, clock } = this.rule(row);
    const data = fresh.flatMap(({ rows }) => rowsToData(metric, rows));
    if (!rule.windowed) {
      const output = passThrough(rule, await this.readModel(), data);
      await this.send(output);
      this.ctx.storage.transactionSync(() => {
        this.remember(fresh, now);
        this.sql.exec(
          `UPDATE rule SET data_read = data_read + ?, data_emitted = data_emitted + ?, last_evaluation_at = ?,
             last_error = NULL`,
          data.length,
          output.length,
          now,
        );
      });
      return "fed";
    }
    const byPane = new Map<number, Map<string, Accumulator>>();
    let late = 0;
    for (const datum of data) {
      if (clock.isLate(datum.timestamp, now)) {
        late += 1;
        continue;
      }
      const pane = clock.paneOf(datum.timestamp);
      let byResource = byPane.get(pane);
      if (!byResource) {
        byResource = new Map();
        byPane.set(pane, byResource);
      }
      let accumulator = byResource.get(datum.resourceId);
      if (!accumulator) {
        accumulator = newAccumulator(rule.keepsValues);
        byResource.set(datum.resourceId, accumulator);
      }
      addToAccumulator(accumulator, datum.value);
    }
    this.ctx.storage.transactionSync(() => {
      this.panes.add(byPane);
      this.remember(fresh, now);
      this.sql.exec("UPDATE rule SET data_read = data_read + ?, data_late = data_late + ?", data.length - late, late);
    });
    await this.scheduleClose(row.closed_through, clock);
    return "fed";
  }

  /** Closes every window whose time has come, in order, each recorded once its output is on the queue. */
  override async alarm(): Promise<void> {
    const row = this.row();
    if (!row?.enabled) return;
    const { rule, clock } = this.rule(row);
    const now = Date.now();
    let closedThrough = row.closed_through;
    try {
      const ends = clock.closedEnds(this.panes.starts(), closedThrough, now);
      const model = ends.length > 0 ? await this.readModel() : undefined;
      for (const end of ends) {
        const output = evaluateWindow(
          rule,
          model!,
          this.panes.window(end - clock.windowMs, end, rule.keepsValues),
          end,
        );
        await this.send(output);
        this.ctx.storage.transactionSync(() => {
          this.sql.exec(
            `UPDATE rule SET closed_through = ?, windows_evaluated = windows_evaluated + 1,
               data_emitted = data_emitted + ?, last_evaluation_at = ?, last_error = NULL`,
            end,
            output.length,
            Date.now(),
          );
          // The next window to close starts one step later: panes before it are no longer needed.
          this.panes.dropBefore(end + clock.stepMs - clock.windowMs);
        });
        closedThrough = end;
      }
      this.sql.exec("DELETE FROM fed_message WHERE at < ?", now - rememberMessagesMs);
    } catch (error) {
      this.sql.exec("UPDATE rule SET last_error = ?", error instanceof Error ? error.message : String(error));
      await this.ctx.storage.setAlarm(Date.now() + retryEvaluationMs);
      return;
    }
    await this.scheduleClose(closedThrough, clock);
  }

  private async scheduleClose(closedThrough: number, clock: WindowClock): Promise<void> {
    const next = clock.nextClose(this.panes.starts(), closedThrough);
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  private async send(output: readonly Datum[]): Promise<void> {
    if (output.length === 0) return;
    await sendMessages(this.env.INTAKE_QUEUE, encodeIntakeMessages(output));
  }

  private async readModel(): Promise<ModelSnapshot> {
    this.model ??= new ModelSnapshot(await knowledgeBase(this.env).readModel());
    return this.model;
  }

  private seen(messageId: string): boolean {
    return this.sql.exec("SELECT 1 FROM fed_message WHERE id = ?", messageId).toArray().length > 0;
  }

  private remember(messages: readonly FedMessage[], at: number): void {
    for (const { messageId } of messages) {
      this.sql.exec("INSERT OR IGNORE INTO fed_message (id, at) VALUES (?, ?)", messageId, at);
    }
  }

  /** The rule compiled from its stored definition, once per definition. */
  private rule(row: RuleRow): { rule: CompiledRule; clock: WindowClock } {
    if (this.compiled?.definition !== row.definition) {
      const definition = JSON.parse(row.definition) as RuleDefinition;
      const compiled = compileRule(definition, [], readConfig(this.env));
      if (!compiled.ok) throw new Error(`the stored rule does not compile: ${compiled.problems[0]?.message}`);
      this.compiled = { definition: row.definition, rule: compiled.rule, clock: new WindowClock(definition) };
    }
    return this.compiled;
  }

  private row(): RuleRow | undefined {
    return this.sql
      .exec<RuleRow>(
        `SELECT definition, enabled, closed_through, windows_evaluated, data_read, data_emitted, data_late,
           last_evaluation_at, last_error FROM rule`,
      )
      .toArray()[0];
  }
}

/** The Durable Object that holds the rule `id`. */
export function ruleStub(env: Env, id: string): DurableObjectStub<RuleObject> {
  return countingRequests(env.RULE.get(env.RULE.idFromName(id)), "RULE");
}
