import { DurableObject } from "cloudflare:workers";
import { OneAtATime } from "../../shared/one-at-a-time";
import { type Config, readConfig } from "../config";
import { reportAttempt } from "../delivery/attempt-report";
import { executeDeliveries } from "../delivery/transports/dispatch";
import type { AttemptRecord, BatchReport, Delivery, MetricPlan, ObserverPlan } from "../delivery/vocabulary";
import type { DatumRow } from "../intake/datum";
import { intakeMessagesSend } from "../intake/journal/journal-client";
import { encodeIntakeMessages } from "../intake/queue-message";
import { countingRequests } from "../ops/usage";
import type { RestCall } from "../rules/evaluation/compile-rule";
import { AttemptLog } from "./attempt-log";
import { BacklogStore } from "./backlog-store";
import { BatchTurns } from "./batch-turns";
import { DeliveryLedger } from "./delivery-ledger";
import { metricCatalogStub } from "./metric-catalog";
import type { MetricDeclaration, MetricView } from "./metric-schema";
import type { ObserverChange, ObserverRegistration, ObserverReport, PublicObserver } from "./observer-schema";
import { ObserverStore } from "./observer-store";
import { RecentData } from "./recent-data";

/** The metric under which observers that became disabled are announced. */
export const observerDisabledMetric = "tower.observer.disabled";

/**
 * How long a batch may keep its turn at direct deliveries, in budgets: its deliveries start within
 * one, each is abandoned at most one after it started, and the third leaves time to record them.
 */
const turnLeaseInBudgets = 3;

/** How long one alarm keeps delivering an observer's backlog before it yields to the next alarm. */
const drainTimeMs = 30_000;

export type ObserverChangeResult =
  | { outcome: "changed"; report: ObserverReport }
  | { outcome: "unknown-observer" }
  | { outcome: "headers-not-http" };

export type RetryNowResult =
  | { outcome: "started"; report: ObserverReport }
  | { outcome: "held"; state: "paused" | "disabled" }
  | { outcome: "unknown-observer" };

export type ObserverRegistrationResult =
  | { outcome: "created" | "existing"; observer: PublicObserver }
  | { outcome: "unknown-metric" }
  | { outcome: "limit-reached" };

/** What a consumer batch brings of the metric: its last data (at most the recent data kept), and how many it holds. */
export interface BatchIntake {
  latest: DatumRow[];
  count: number;
}

type MetricRow = { name: string; description: string | null; unit: string | null; listed: number };

/**
 * One metric (one object per metric name): its declaration, its observers, their delivery status,
 * attempt logs and backlogs. The delivery side reads the observers here on every batch, so they are
 * never stale; what an observer did not receive is written here, and the object's alarm delivers it
 * when its turn comes.
 *
 * `listed` records whether the catalog knows the metric. It is set only after the catalog
 * confirmed, and cleared before the catalog is told of a deletion, so an interrupted creation or
 * deletion is repaired by the next touch of the metric instead of leaving the catalog wrong.
 */
export class MetricObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly observers: ObserverStore;
  private readonly attempts: AttemptLog;
  private readonly ledger: DeliveryLedger;
  private readonly recent: RecentData;
  /** Creations and deletions run one at a time: they await the catalog. */
  private readonly lifecycle = new OneAtATime();
  private readonly turns = new BatchTurns();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS metric (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        name TEXT NOT NULL,
        description TEXT,
        unit TEXT,
        listed INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE IF NOT EXISTS rule_reader (rule_id TEXT PRIMARY KEY);
    `);
    this.observers = new ObserverStore(this.sql);
    this.attempts = new AttemptLog(this.sql);
    this.recent = new RecentData(this.sql);
    this.ledger = new DeliveryLedger(this.observers, new BacklogStore(this.sql), this.attempts, readConfig(env));
  }

  /** Creates the metric if it does not exist. Costs one local read when it does. */
  async ensureMetric(name: string): Promise<void> {
    if (this.metricRow()?.listed) return;
    await this.lifecycle.run(async () => {
      this.sql.exec("INSERT OR IGNORE INTO metric (singleton, name) VALUES (1, ?)", name);
      await this.listInCatalog();
    });
  }

  /** Creates the metric or replaces its description and unit; `created` tells which. */
  async declareMetric(name: string, declaration: MetricDeclaration): Promise<{ created: boolean; metric: MetricView }> {
    return this.lifecycle.run(async () => {
      const created = this.metricRow() === undefined;
      this.sql.exec(
        `INSERT INTO metric (singleton, name, description, unit) VALUES (1, ?, ?, ?)
         ON CONFLICT (singleton) DO UPDATE SET description = excluded.description, unit = excluded.unit`,
        name,
        declaration.description ?? null,
        declaration.unit ?? null,
      );
      await this.listInCatalog();
      return { created, metric: this.describeMetric()! };
    });
  }

  describeMetric(): MetricView | null {
    const metric = this.metricRow();
    if (!metric) return null;
    return {
      id: metric.name,
      ...(metric.description === null ? {} : { description: metric.description }),
      ...(metric.unit === null ? {} : { unit: metric.unit }),
      observers: this.observers.count(),
      dataAccepted: this.recent.total(),
      acceptedPerMinute: this.recent.perMinute(Date.now()),
    };
  }

  /** What a scrape of the service's state shows of the metric; null if it does not exist. */
  healthReport(): { dataAccepted: number; observers: ObserverReport[] } | null {
    if (!this.metricRow()) return null;
    const observers = this.observers.list().flatMap((observer) => this.observerReport(observer.id) ?? []);
    return { dataAccepted: this.recent.total(), observers };
  }

  /** The metric's most recent data, newest first; null if the metric does not exist. */
  recentData(limit: number): DatumRow[] | null {
    if (!this.metricRow()) return null;
    return this.recent.latest(limit);
  }

  /** Deletes the metric with its observers and their backlogs; false if it does not exist. */
  async deleteMetric(): Promise<boolean> {
    return this.lifecycle.run(async () => {
      const metric = this.metricRow();
      if (!metric) return false;
      this.sql.exec("UPDATE metric SET listed = 0");
      await metricCatalogStub(this.env).remove(metric.name);
      this.ctx.storage.transactionSync(() => {
        this.ledger.clear();
        this.recent.clear();
        this.sql.exec("DELETE FROM metric");
        this.sql.exec("DELETE FROM rule_reader");
      });
      await this.ctx.storage.deleteAlarm();
      return true;
    });
  }

  /**
   * Adds an observer, or finds the one with the same format, protocol and address; a registration
   * of the same target brings its secret (as a rotation) and headers, when it names them.
   */
  registerObserver(
    registration: ObserverRegistration,
    maxObservers: number,
    secret: string | undefined,
  ): ObserverRegistrationResult {
    if (!this.metricRow()) return { outcome: "unknown-metric" };
    const existing = this.observers.findSameTarget(registration);
    if (existing) {
      this.observers.change(existing.id, {
        ...(secret === undefined ? {} : { secret, rotationEndsAt: this.rotationEndsAt() }),
        ...(registration.headers === undefined ? {} : { headers: registration.headers }),
      });
      return { outcome: "existing", observer: existing };
    }
    if (this.observers.count() >= maxObservers) return { outcome: "limit-reached" };
    return { outcome: "created", observer: this.observers.insert(registration, secret) };
  }

  /** The observers in registration order; null if the metric does not exist. */
  listObservers(): PublicObserver[] | null {
    if (!this.metricRow()) return null;
    return this.observers.list();
  }

  observerReport(observerId: string): ObserverReport | null {
    return this.observers.report(observerId, this.ledger.oldestPendingAcceptedAt(observerId)) ?? null;
  }

  /** The observer's latest attempts, newest first; null if there is no such observer. */
  observerAttempts(observerId: string, limit: number): AttemptRecord[] | null {
    if (!this.observers.target(observerId, Date.now())) return null;
    return this.attempts.latest(observerId, limit);
  }

  /** Pauses, resumes, re-keys or changes the headers of an observer. */
  async changeObserver(observerId: string, change: ObserverChange): Promise<ObserverChangeResult> {
    const now = Date.now();
    const found = this.observers.target(observerId, now);
    if (!found) return { outcome: "unknown-observer" };
    if (change.headers !== undefined && found.target.protocol !== "HTTP") return { outcome: "headers-not-http" };
    this.ctx.storage.transactionSync(() => {
      if (change.state === "active" && found.ledger.state !== "active") this.ledger.resume(observerId, now);
      this.observers.change(observerId, {
        ...(change.state === "paused" ? { state: "paused" } : {}),
        ...(change.secret === undefined ? {} : { secret: change.secret, rotationEndsAt: this.rotationEndsAt() }),
        ...(change.headers === undefined ? {} : { headers: change.headers }),
      });
    });
    await this.scheduleWake();
    return { outcome: "changed", report: this.observerReport(observerId)! };
  }

  /** Puts the observer's dead data accepted within the range back into its backlog; null if there is no such observer. */
  async replay(observerId: string, since: number, until: number): Promise<number | null> {
    const now = Date.now();
    if (!this.observers.target(observerId, now)) return null;
    const data = this.ctx.storage.transactionSync(() => this.ledger.replay(observerId, since, until, now));
    await this.scheduleWake();
    return data;
  }

  /**
   * Retry now: the observer's waiting data are due at once, and the alarm that delivers them is set
   * to now, so that an observer known to be up again need not wait for its scheduled retry. A paused
   * or disabled observer is held: resuming it is what tries its backlog.
   */
  async retryNow(observerId: string): Promise<RetryNowResult> {
    const now = Date.now();
    const found = this.observers.target(observerId, now);
    if (!found) return { outcome: "unknown-observer" };
    const { state } = found.ledger;
    if (state !== "active") return { outcome: "held", state };
    this.ctx.storage.transactionSync(() => this.ledger.retryNow(observerId, now));
    await this.scheduleWake();
    return { outcome: "started", report: this.observerReport(observerId)! };
  }

  /**
   * The observers of the metric and how a batch treats each (delivered to now, or held: its data go
   * to its backlog; and how long its latest successful attempt took, which tells how long the batch
   * waits for it), and the enabled rules that read the metric. A batch of data that delivers to
   * some observer directly gets the turn (see BatchTurns), once the batch before recorded its outcome.
   * Creates the metric if it does not exist, and records the batch's data among its recent data.
   */
  async deliveryPlan(name: string, batch: BatchIntake = { latest: [], count: 0 }): Promise<MetricPlan> {
    await this.ensureMetric(name);
    this.recent.record(batch.latest, batch.count, Date.now());
    const budgetMs = readConfig(this.env).DELIVERY_BUDGET_MS;
    const turn =
      batch.count > 0 && this.observers.count() > 0 ? await this.turns.take(turnLeaseInBudgets * budgetMs) : undefined;
    const ruleReaders = this.ruleReaders();
    const observers = this.observers.targets(Date.now()).map(({ target, ledger }): ObserverPlan => {
      const held = ledger.state !== "active" || ledger.backlog > 0;
      const answeredInMs = held ? undefined : this.latestAnswerMs(target.id);
      return { target, held, ...(answeredInMs === undefined ? {} : { answeredInMs }) };
    });
    if (turn === undefined) return { observers, ruleReaders };
    if (observers.every((observer) => observer.held)) {
      this.turns.handBack(turn);
      return { observers, ruleReaders };
    }
    return { observers, ruleReaders, turn };
  }

  /** Lists an enabled rule that reads the metric (which is created if need be). */
  async addRuleReader(name: string, ruleId: string): Promise<void> {
    await this.ensureMetric(name);
    this.sql.exec("INSERT OR IGNORE INTO rule_reader (rule_id) VALUES (?)", ruleId);
  }

  removeRuleReader(ruleId: string): void {
    this.sql.exec("DELETE FROM rule_reader WHERE rule_id = ?", ruleId);
  }

  /** Makes `call` the one observer of this (a RestCall rule's calls) metric: one request per datum, retried like any delivery. */
  attachRestCall(call: RestCall): void {
    this.ctx.storage.transactionSync(() => {
      this.ledger.clear();
      this.observers.insert({ format: "TOWER/JSON", protocol: "HTTP", callbackUrl: call.url }, undefined, call.method);
    });
  }

  /** Removes every observer with its backlog and attempts (the metric stays). */
  async removeObservers(): Promise<void> {
    this.ctx.storage.transactionSync(() => this.ledger.clear());
    await this.ctx.storage.deleteAlarm();
  }

  /**
   * A consumer batch's attempts and the data its observers did not receive, recorded in one
   * transaction: when this returns, those data are on disk in the backlogs.
   */
  async recordBatch(report: BatchReport): Promise<void> {
    const now = Date.now();
    const { disabled, broughtForward } = this.ctx.storage.transactionSync(() => ({
      disabled: this.ledger.recordBatch(report, now),
      broughtForward: this.ledger.bringForward(report, now),
    }));
    if (report.turn !== undefined) this.turns.handBack(report.turn);
    if (report.owed.length > 0 || disabled.length > 0 || broughtForward) await this.scheduleWake();
    await this.announceDisabled(disabled, now);
  }

  /** Tries the backlogs that are due, and drops the dead data whose retention ended. */
  override async alarm(): Promise<void> {
    const metric = this.metricRow();
    if (!metric) return;
    const config = readConfig(this.env);
    this.ctx.storage.transactionSync(() => this.ledger.sweep(Date.now()));
    const due = this.ledger.due(Date.now());
    await Promise.all(due.map((observerId) => this.drain(metric.name, observerId, config)));
    await this.scheduleWake();
  }

  /** Removes one observer with its backlog and attempts; false if there was none with that id. */
  removeObserver(observerId: string): boolean {
    if (!this.observers.target(observerId, Date.now())) return false;
    this.ctx.storage.transactionSync(() => this.ledger.remove(observerId));
    return true;
  }

  /**
   * Delivers the observer's backlog in order, one chunk per attempt, until an attempt fails or the
   * drain's time is up (the observer then stays due, and the next alarm goes on).
   */
  private async drain(metric: string, observerId: string, config: Config): Promise<void> {
    const deadline = Date.now() + drainTimeMs;
    while (Date.now() < deadline) {
      const found = this.observers.target(observerId, Date.now());
      const chunk = this.ledger.head(observerId);
      if (found?.ledger.state !== "active" || !chunk) return;
      this.ctx.storage.transactionSync(() => this.ledger.startAttempt(chunk));
      const delivery: Delivery = {
        metric,
        target: found.target,
        rows: chunk.rows,
        webhookId: chunk.webhookId,
        attempt: chunk.attempts + 1,
      };
      const [result] = await executeDeliveries([delivery], config);
      const at = Date.now();
      const outcome = this.ctx.storage.transactionSync(() =>
        this.ledger.recordBacklogAttempt(chunk, reportAttempt(result!, at), at),
      );
      await this.announceDisabled(outcome.disabled ? [observerId] : [], at);
      if (!outcome.next) return;
    }
  }

  /** Sets the alarm to the next time there is work, or removes it. */
  private async scheduleWake(): Promise<void> {
    const wake = this.ledger.nextWake();
    if (wake === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(wake, Date.now()));
  }

  /**
   * Each observer that became disabled is announced as a datum of `tower.observer.disabled`
   * (resourceId: the observer), which other observers can subscribe to. An announcement that
   * cannot be queued is logged: the disabled state itself is recorded either way.
   */
  private async announceDisabled(observerIds: readonly string[], at: number): Promise<void> {
    if (observerIds.length === 0) return;
    const data = observerIds.map((observerId) => ({
      id: `${observerDisabledMetric}:${observerId}:${at}`,
      metric: observerDisabledMetric,
      timestamp: at,
      value: 1,
      resourceId: observerId,
    }));
    try {
      const send = intakeMessagesSend(this.env, readConfig(this.env).INTAKE_JOURNAL);
      await send(this.env.INTAKE_QUEUE, encodeIntakeMessages(data));
    } catch (error) {
      console.error("observer disabled, but not announced:", error instanceof Error ? error.message : error);
    }
  }

  /** How long the observer's latest attempt took, if it succeeded. */
  private latestAnswerMs(observerId: string): number | undefined {
    const [latest] = this.attempts.latest(observerId, 1);
    return latest?.ok ? latest.latencyMs : undefined;
  }

  private rotationEndsAt(): number {
    return Date.now() + readConfig(this.env).SECRET_ROTATION_HOURS * 3_600_000;
  }

  private ruleReaders(): string[] {
    return this.sql
      .exec<{ rule_id: string }>("SELECT rule_id FROM rule_reader ORDER BY rule_id")
      .toArray()
      .map((row) => row.rule_id);
  }

  private metricRow(): MetricRow | undefined {
    return this.sql.exec<MetricRow>("SELECT name, description, unit, listed FROM metric").toArray()[0];
  }

  /** Tells the catalog about the (existing) metric unless it already knows. */
  private async listInCatalog(): Promise<void> {
    const metric = this.metricRow()!;
    if (metric.listed) return;
    await metricCatalogStub(this.env).add(metric.name);
    this.sql.exec("UPDATE metric SET listed = 1");
  }
}

/** The Durable Object that holds the metric `name`. */
export function metricStub(env: Env, name: string): DurableObjectStub<MetricObject> {
  return countingRequests(env.METRIC.get(env.METRIC.idFromName(name)));
}
