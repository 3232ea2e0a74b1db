import { DurableObject } from "cloudflare:workers";
import { OneAtATime } from "../common/one-at-a-time";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { readConfig } from "../config";
import type { RestCall } from "../rules/evaluation/compile-rule";
import { revokeLeasedPlans } from "../summary/plan-epoch-requests";
import { publishSummary } from "../summary/summary-publish";
import type { MetricFigures, ObserverSnapshot } from "../summary/summary-update";
import type { DatumRow } from "../vocabulary/datum";
import type { AttemptRecord, BatchReport, MetricPlan, MetricRun, SelectorEntry } from "../vocabulary/delivery";
import { rowsJson } from "../vocabulary/row-json";
import { attemptSchema } from "./attempt-log";
import { backlogSchema } from "./backlog-store";
import { metricCatalogStub } from "./metric-catalog";
import type { MetricDeclaration, MetricView } from "./metric-schema";
import { type ObserverChangeResult, ObserverDesk, type RetryNowResult } from "./observer-desk";
import type { ObserverChange, ObserverRegistration, ObserverReport, PublicObserver } from "./observer-schema";
import { observerSchema } from "./observer-store";
import { PlanLeases, planLeaseSchema } from "./plan-lease";
import { type MinuteCount, RecentData, recentBlocksAsBytes, recentDataSchema } from "./recent-data";

export type ObserverRegistrationResult =
  | { outcome: "created" | "existing"; observer: PublicObserver }
  | { outcome: "unknown-metric" }
  | { outcome: "limit-reached" };

/**
 * What the consumer brings of the metric's data: the last (at most the recent data kept), and how
 * many it consumed in each minute; of one batch, or of several consumed under a plan lease.
 */
export interface BatchIntake {
  latest: DatumRow[];
  counts: MinuteCount[];
}

/** Data consumed under plan leases, as their summary shard hands them over: row blocks (see row-block.ts) one after the other in the order consumed, and the counts per minute. */
export interface LeasedIntakeBlocks {
  blocks: Uint8Array;
  counts: MinuteCount[];
}

/**
 * A batch's plan, with the metric's figures for the summary, and, when only selector observers
 * follow the metric, how long the consumer may reuse the plan (see PlanLeases).
 */
export type LeasablePlan = MetricPlan & { figures: MetricFigures; leaseMs?: number };

/** The metric's own tables: its declaration, the rules that read it, the observers that follow selectors. */
const metricSchema = `
  CREATE TABLE metric (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    name TEXT NOT NULL,
    description TEXT,
    unit TEXT,
    listed INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE rule_reader (rule_id TEXT PRIMARY KEY);
  CREATE TABLE selector_observer (id TEXT PRIMARY KEY, entry TEXT NOT NULL);
`;

/** A metric object's schema steps, numbered from 1 in this order: its own tables', then its stores'. */
const schemaSteps: SchemaSteps = [
  metricSchema,
  observerSchema,
  attemptSchema,
  backlogSchema,
  recentDataSchema,
  planLeaseSchema,
  recentBlocksAsBytes,
];

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
  private readonly desk: ObserverDesk<DatumRow>;
  private readonly recent: RecentData;
  private readonly leases: PlanLeases;
  /** Creations and deletions run one at a time: they await the catalog. */
  private readonly lifecycle = new OneAtATime();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrateSchema(ctx.storage, schemaSteps);
    this.desk = new ObserverDesk({ ctx, env, itemsJson: rowsJson, runsOf: (rows) => this.runsOf(rows) });
    this.recent = new RecentData(this.sql);
    this.leases = new PlanLeases(this.sql, () => readConfig(env).PLAN_LEASE_MS);
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
      return this.published({ created, metric: this.describeMetric()! });
    });
  }

  describeMetric(): MetricView | null {
    const metric = this.metricRow();
    if (!metric) return null;
    return {
      id: metric.name,
      ...(metric.description === null ? {} : { description: metric.description }),
      ...(metric.unit === null ? {} : { unit: metric.unit }),
      observers: this.desk.observers.count(),
      dataAccepted: this.recent.total(),
      acceptedPerMinute: this.recent.perMinute(Date.now()),
    };
  }

  /** What a scrape of the service's state shows of the metric; null if it does not exist. */
  healthReport(): { dataAccepted: number; observers: ObserverReport[] } | null {
    if (!this.metricRow()) return null;
    const observers = this.desk.observers.list().flatMap((observer) => this.observerReport(observer.id) ?? []);
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
        this.desk.ledger.clear();
        this.recent.clear();
        this.sql.exec("DELETE FROM metric");
        this.sql.exec("DELETE FROM rule_reader");
        this.sql.exec("DELETE FROM selector_observer");
      });
      await this.ctx.storage.deleteAlarm();
      await publishSummary(this.env, metric.name, { removedMetrics: [{ key: metric.name, at: Date.now() }] });
      return true;
    });
  }

  /**
   * Adds an observer, or finds the one with the same format, protocol and address; a registration
   * of the same target brings its secret (as a rotation) and headers, when it names them.
   */
  async registerObserver(
    registration: ObserverRegistration,
    maxObservers: number,
    secret: string | undefined,
  ): Promise<ObserverRegistrationResult> {
    if (!this.metricRow()) return { outcome: "unknown-metric" };
    const { observers } = this.desk;
    const existing = observers.findSameTarget(registration);
    if (existing) {
      observers.change(existing.id, {
        ...(secret === undefined ? {} : { secret, rotationEndsAt: this.desk.rotationEndsAt() }),
        ...(registration.headers === undefined ? {} : { headers: registration.headers }),
      });
      return this.published({ outcome: "existing", observer: existing });
    }
    if (observers.count() >= maxObservers) return { outcome: "limit-reached" };
    const observer = observers.insert(registration, secret);
    // From here on no lease is granted; a batch planned before must not use one.
    await this.revokeLeases();
    return this.published({ outcome: "created", observer });
  }

  /** The observers in registration order; null if the metric does not exist. */
  listObservers(): PublicObserver[] | null {
    if (!this.metricRow()) return null;
    return this.desk.observers.list();
  }

  observerReport(observerId: string): ObserverReport | null {
    return this.desk.report(observerId);
  }

  /** The observer's latest attempts, newest first; null if there is no such observer. */
  observerAttempts(observerId: string, limit: number): AttemptRecord[] | null {
    return this.desk.latestAttempts(observerId, limit);
  }

  /** Pauses, resumes, re-keys or changes the headers of an observer. */
  async changeObserver(observerId: string, change: ObserverChange): Promise<ObserverChangeResult> {
    return this.published(await this.desk.change(observerId, change));
  }

  /** Puts the observer's dead data accepted within the range back into its backlog; null if there is no such observer. */
  async replay(observerId: string, since: number, until: number): Promise<number | null> {
    return this.published(await this.desk.replay(observerId, since, until));
  }

  /** Retry now (see ObserverDesk.retryNow). */
  async retryNow(observerId: string): Promise<RetryNowResult> {
    return this.published(await this.desk.retryNow(observerId));
  }

  /**
   * The observers of the metric and how a batch treats each (delivered to now, or held: its data go
   * to its backlog; and how long its latest successful attempt took, which tells how long the batch
   * waits for it), and the enabled rules that read the metric. A batch of data that delivers to
   * some observer directly gets the turn (see BatchTurns), once the batch before recorded its outcome.
   * Creates the metric if it does not exist, and records the batch's data among its recent data.
   * A plan that names selector observers and nothing else is leased (see PlanLeases): the
   * consumer then saves a request per metric and batch where a selector observer's fan-out
   * would pay it, at the price of the metric's counts lagging (see plan-cache.ts).
   */
  async deliveryPlan(name: string, batch: BatchIntake = { latest: [], counts: [] }): Promise<LeasablePlan> {
    const figures = await this.recordIntake(name, batch);
    const data = batch.counts.reduce((sum, [, count]) => sum + count, 0);
    const plan = {
      ...(await this.desk.plan(data)),
      selectors: this.selectorObservers(),
      ruleReaders: this.ruleReaders(),
    };
    const onlySelectorObservers =
      plan.selectors.length > 0 && plan.ruleReaders.length === 0 && this.desk.observers.count() === 0;
    const leaseMs = onlySelectorObservers ? this.leases.grant() : undefined;
    return { ...plan, figures, ...(leaseMs === undefined ? {} : { leaseMs }) };
  }

  /**
   * Records a batch's consumed data among the metric's recent data (see deliveryPlan), creating the
   * metric if it does not exist; answers its figures for the summary.
   */
  async recordIntake(name: string, intake: BatchIntake): Promise<MetricFigures> {
    await this.ensureMetric(name);
    this.recent.record(intake.latest, intake.counts, Date.now());
    return this.summaryFigures()!;
  }

  /**
   * Records data consumed under plan leases, which the metric's summary shard hands over once a
   * lease ended, as the shard kept them (see RecentData.recordBlocks), creating the metric if it
   * does not exist; answers its figures for the summary.
   */
  async recordLeasedIntake(name: string, intake: LeasedIntakeBlocks): Promise<MetricFigures> {
    await this.ensureMetric(name);
    this.recent.recordBlocks(intake.blocks, intake.counts, Date.now());
    return this.summaryFigures()!;
  }

  /**
   * Keeps an observer that follows selectors, whose plan each batch of the metric's data then names
   * (none while the metric does not exist); answers how long the plans leased without it still last.
   */
  keepSelectorObserver(entry: SelectorEntry): number {
    if (this.metricRow()) this.keepSelectorEntries([entry]);
    return this.leases.remainingMs();
  }

  forgetSelectorObserver(id: string): void {
    this.sql.exec("DELETE FROM selector_observer WHERE id = ?", id);
  }

  /** Lists an enabled rule that reads the metric (which is created if need be). */
  async addRuleReader(name: string, ruleId: string): Promise<void> {
    await this.ensureMetric(name);
    this.sql.exec("INSERT OR IGNORE INTO rule_reader (rule_id) VALUES (?)", ruleId);
    // The rule reads every datum accepted from now on, also those a lease granted before would skip it for.
    await this.revokeLeases();
    await this.published(undefined);
  }

  removeRuleReader(ruleId: string): void {
    this.sql.exec("DELETE FROM rule_reader WHERE rule_id = ?", ruleId);
  }

  /** Makes `call` the one observer of this (a RestCall rule's calls) metric: one request per datum, retried like any delivery. */
  async attachRestCall(call: RestCall): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.desk.ledger.clear();
      this.desk.observers.insert(
        { format: "TOWER/JSON", protocol: "HTTP", callbackUrl: call.url },
        undefined,
        call.method,
      );
    });
    await this.revokeLeases();
    await this.published(undefined);
  }

  /** Removes every observer with its backlog and attempts (the metric stays). */
  async removeObservers(): Promise<void> {
    await this.desk.clear();
    await this.published(undefined);
  }

  /**
   * A consumer batch's attempts and undelivered data (see ObserverDesk.recordBatch); answers the
   * observers' reports after it, for the summary, which the consumer writes once for the whole batch.
   */
  async recordBatch(report: BatchReport): Promise<ObserverSnapshot[]> {
    await this.desk.recordBatch(report);
    return this.observerSnapshots(Date.now());
  }

  /** Tries the backlogs that are due, and drops the dead data whose retention ended. */
  override async alarm(): Promise<void> {
    if (!this.metricRow()) return;
    await this.desk.deliverDue();
    await this.published(undefined);
  }

  /** Removes one observer with its backlog and attempts; false if there was none with that id. */
  async removeObserver(observerId: string): Promise<boolean> {
    return this.published(this.desk.remove(observerId));
  }

  /** The metric's figures as the summary shows them; null if it does not exist. */
  private summaryFigures(): MetricFigures | null {
    const metric = this.describeMetric();
    if (!metric) return null;
    const { id, acceptedPerMinute, ...figures } = metric;
    const [latest] = this.recent.latest(1);
    return { ...figures, name: id, at: Date.now(), acceptedPerMinute, latestDatumAt: latest?.[1] ?? null };
  }

  /** Every observer's report, as the summary shows it. */
  private observerSnapshots(at: number): ObserverSnapshot[] {
    const name = this.metricRow()?.name;
    if (name === undefined) return [];
    return this.desk.observers.list().flatMap(({ id }) => {
      const report = this.desk.report(id);
      return report ? [{ id, at, metric: name, report }] : [];
    });
  }

  /**
   * Hands the summary the metric and every observer as they are after an administrator's change or
   * an alarm's deliveries (an observer it lacks is gone), and answers `result`.
   */
  private async published<Result>(result: Result): Promise<Result> {
    const figures = this.summaryFigures();
    if (figures) {
      const observers = this.observerSnapshots(figures.at);
      await publishSummary(this.env, figures.name, { metricStates: [{ figures, observers }] });
    }
    return result;
  }

  /** A backlog chunk of this metric's data as a payload's one run. */
  private runsOf(rows: readonly DatumRow[]): readonly MetricRun[] {
    return [[this.metricRow()!.name, rows]];
  }

  private selectorObservers(): SelectorEntry[] {
    return this.sql
      .exec<{ entry: string }>("SELECT entry FROM selector_observer ORDER BY rowid")
      .toArray()
      .map((row) => JSON.parse(row.entry) as SelectorEntry);
  }

  private keepSelectorEntries(entries: readonly SelectorEntry[]): void {
    for (const entry of entries) {
      this.sql.exec(
        "INSERT OR IGNORE INTO selector_observer (id, entry) VALUES (?, ?)",
        entry.id,
        JSON.stringify(entry),
      );
    }
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

  /**
   * Makes the plans leased so far untrusted by every consumer, once the plan changed: through the
   * plan epoch of the metric's summary shard, or, when that cannot be advanced, by waiting until
   * they ended (see src/worker/delivery/plan-cache.ts).
   */
  private async revokeLeases(): Promise<void> {
    if (this.leases.remainingMs() === 0) return;
    const waitOut = () => this.leases.waitOut();
    const name = this.metricRow()?.name;
    await (name === undefined ? waitOut() : revokeLeasedPlans(this.env, [name], waitOut));
  }

  /** Tells the catalog about the (existing) metric unless it already knows. */
  private async listInCatalog(): Promise<void> {
    const metric = this.metricRow()!;
    if (metric.listed) return;
    const selectors = await metricCatalogStub(this.env).add(metric.name);
    this.ctx.storage.transactionSync(() => {
      this.keepSelectorEntries(selectors);
      this.sql.exec("UPDATE metric SET listed = 1");
    });
  }
}

/** The Durable Object that holds the metric `name`. */
export function metricStub(env: Env, name: string): DurableObjectStub<MetricObject> {
  return countingRequests(env.METRIC.get(env.METRIC.idFromName(name)), "METRIC");
}
