import { DurableObject } from "cloudflare:workers";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { runsOfMetricData } from "../delivery/metric-runs";
import { attemptSchema } from "../metrics/attempt-log";
import { backlogSchema } from "../metrics/backlog-store";
import { type ObserverChangeResult, ObserverDesk, type RetryNowResult } from "../metrics/observer-desk";
import type { ObserverChange, ObserverRegistration, ObserverReport } from "../metrics/observer-schema";
import { observerSchema } from "../metrics/observer-store";
import { publishSummary, publishToEveryShard } from "../summary/summary-publish";
import type { ObserverSnapshot } from "../summary/summary-update";
import type { AttemptRecord, BatchReport, MetricDatum, ObserverPlan } from "../vocabulary/delivery";
import { jsonRow } from "../vocabulary/row-json";
import type { SelectorSpec } from "./selector-observer-schema";

/** A selector observer as the API shows it. */
export type SelectorObserverView = ObserverReport & SelectorSpec;

/** A backlog's items as JSON: each row written as JSON.parse reads it back (negative zero included). */
function metricDataJson(items: readonly MetricDatum[]): string {
  return JSON.stringify(items.map(([metric, row]) => [metric, jsonRow(row)]));
}

/** What the object follows, as its own table. */
const selectorSchema = `
  CREATE TABLE selector (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    id TEXT NOT NULL,
    spec TEXT NOT NULL
  );
`;

/** A selector observer object's schema steps, numbered from 1 in this order: its own table's, then its stores'. */
const schemaSteps: SchemaSteps = [selectorSchema, observerSchema, attemptSchema, backlogSchema];

/**
 * One observer that follows selectors (one object per observer): what it follows, and, as a
 * metric's object keeps them for its observers, its status, attempt log and one durable backlog of
 * data of every metric it follows, in the order they were accepted. Consumer batches ask it for
 * its plan and record what became of its payload, one call each per batch whatever the metrics.
 */
export class SelectorObserverObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly desk: ObserverDesk<MetricDatum>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrateSchema(ctx.storage, schemaSteps);
    this.desk = new ObserverDesk({
      ctx,
      env,
      itemsJson: metricDataJson,
      runsOf: runsOfMetricData,
      labelChanges: () => this.spec()?.labels,
    });
  }

  /** Makes this object the observer `id`, unless it already is. */
  async create(
    id: string,
    spec: SelectorSpec,
    target: ObserverRegistration,
    secret: string | undefined,
  ): Promise<SelectorObserverView> {
    if (!this.selectorRow()) {
      this.ctx.storage.transactionSync(() => {
        this.sql.exec("INSERT INTO selector (singleton, id, spec) VALUES (1, ?, ?)", id, JSON.stringify(spec));
        this.desk.observers.insert(target, secret, undefined, id);
      });
    }
    return this.published(this.describe()!);
  }

  /** A registration of the same observer again brings its secret (as a rotation) and headers, when it names them. */
  async registerAgain(
    secret: string | undefined,
    headers: Record<string, string> | undefined,
  ): Promise<SelectorObserverView | null> {
    const row = this.selectorRow();
    if (!row) return null;
    this.desk.observers.change(row.id, {
      ...(secret === undefined ? {} : { secret, rotationEndsAt: this.desk.rotationEndsAt() }),
      ...(headers === undefined ? {} : { headers }),
    });
    return this.published(this.describe());
  }

  /** The observer with its status and what it follows; null if this object holds none. */
  describe(): SelectorObserverView | null {
    const row = this.selectorRow();
    const report = row && this.desk.report(row.id);
    return report ? { ...report, ...this.spec() } : null;
  }

  latestAttempts(limit: number): AttemptRecord[] | null {
    const row = this.selectorRow();
    return row ? this.desk.latestAttempts(row.id, limit) : null;
  }

  async change(change: ObserverChange): Promise<ObserverChangeResult> {
    const row = this.selectorRow();
    return row ? this.published(await this.desk.change(row.id, change)) : { outcome: "unknown-observer" };
  }

  async replay(since: number, until: number): Promise<number | null> {
    const row = this.selectorRow();
    return row ? this.published(await this.desk.replay(row.id, since, until)) : null;
  }

  async retryNow(): Promise<RetryNowResult> {
    const row = this.selectorRow();
    return row ? this.published(await this.desk.retryNow(row.id)) : { outcome: "unknown-observer" };
  }

  /** Forgets the observer with its backlog and attempts; false if this object held none. */
  async remove(): Promise<boolean> {
    const row = this.selectorRow();
    if (!row) return false;
    await this.desk.clear();
    this.sql.exec("DELETE FROM selector");
    // Every shard: a batch may have left a copy of its report in any of them.
    await publishToEveryShard(this.env, { removedObservers: [{ key: row.id, at: Date.now() }] });
    return true;
  }

  /**
   * How a batch treats the observer (see ObserverDesk.plan); null once the observer was removed, so
   * that the batch forgets it.
   */
  async deliveryPlan(data: number): Promise<{ observer: ObserverPlan; turn?: number } | null> {
    if (!this.selectorRow()) return null;
    const { observers, turn } = await this.desk.plan(data);
    const [observer] = observers;
    if (!observer) return null;
    return { observer, ...(turn === undefined ? {} : { turn }) };
  }

  /**
   * A consumer batch's attempt and what the observer did not receive (see ObserverDesk.recordBatch);
   * answers its report after it, for the summary, which the consumer writes once for the whole batch.
   */
  async recordBatch(report: BatchReport<MetricDatum>): Promise<ObserverSnapshot[]> {
    await this.desk.recordBatch(report);
    return this.snapshots();
  }

  override async alarm(): Promise<void> {
    if (!this.selectorRow()) return;
    await this.desk.deliverDue();
    await this.published(undefined);
  }

  /** The observer's report as the summary shows it; none if this object holds none. */
  private snapshots(): ObserverSnapshot[] {
    const report = this.describe();
    return report ? [{ id: report.id, at: Date.now(), report }] : [];
  }

  /** Hands the summary the observer as it is after a change or an alarm's deliveries, and answers `result`. */
  private async published<Result>(result: Result): Promise<Result> {
    const observers = this.snapshots();
    if (observers.length > 0) await publishSummary(this.env, observers[0]!.id, { observers });
    return result;
  }

  private spec(): SelectorSpec | undefined {
    const row = this.selectorRow();
    return row && (JSON.parse(row.spec) as SelectorSpec);
  }

  private selectorRow(): { id: string; spec: string } | undefined {
    return this.sql.exec<{ id: string; spec: string }>("SELECT id, spec FROM selector").toArray()[0];
  }
}

/** The Durable Object that holds the selector observer `id`. */
export function selectorObserverStub(env: Env, id: string): DurableObjectStub<SelectorObserverObject> {
  return countingRequests(env.SELECTOR_OBSERVER.get(env.SELECTOR_OBSERVER.idFromName(id)), "SELECTOR_OBSERVER");
}
