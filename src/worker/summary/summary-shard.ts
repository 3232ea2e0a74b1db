import { DurableObject } from "cloudflare:workers";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { readConfig } from "../config";
import { metricStub } from "../metrics/metric-object";
import { type DueIntake, PendingIntake, pendingIntakeAsBlocks, pendingIntakeSchema } from "./pending-intake";
import { PlanEpochs, planEpochSchema } from "./plan-epochs";
import { summaryShardCount } from "./shard-key";
import type {
  MetricFigures,
  MetricState,
  ObserverSnapshot,
  Removal,
  ShardContent,
  SummarizedObserver,
  SummaryUpdate,
} from "./summary-update";

/** How long a removal is remembered: past it, no version older than the removal can still be on its way. */
const removalKeptMs = 24 * 3_600_000;

const schemaSteps: SchemaSteps = [
  `CREATE TABLE metric (
     name TEXT PRIMARY KEY,
     at INTEGER NOT NULL,
     removed INTEGER NOT NULL,
     figures TEXT
   );
   CREATE TABLE observer (
     id TEXT PRIMARY KEY,
     at INTEGER NOT NULL,
     removed INTEGER NOT NULL,
     metric TEXT,
     report TEXT,
     listed_at INTEGER NOT NULL
   );
   CREATE INDEX observer_of_metric ON observer (metric);`,
  pendingIntakeSchema,
  planEpochSchema,
  pendingIntakeAsBlocks,
];

/** The most metrics an alarm tells at once: its requests stay far below an invocation's subrequest limit. */
const metricsPerAlarm = 200;

/** How long a metric's object that could not be told waits before it is told again. */
const retryAfterMs = 10_000;

/*
 * A row is replaced only by a later version; at the same time, a removal wins. Removals stay as
 * rows (removed = 1), so that an older version arriving late cannot bring the thing back.
 */
const newer = (table: string) =>
  `excluded.at > ${table}.at OR (excluded.at = ${table}.at AND excluded.removed >= ${table}.removed)`;

type ObserverRow = {
  id: string;
  at: number;
  removed: number;
  metric: string | null;
  report: string | null;
  listed_at: number;
};

/**
 * One shard of the overview's summary: the figures of the metrics whose name falls in it with their
 * observers, and the selector observers whose reports were handed to it. Written by the consumer
 * once per batch (whatever its metrics and observers) and by the objects when an administrator
 * changes something or an alarm delivers; read whole by GET /summary and GET /observers. Off the
 * data path's order: the objects stay what is true, this is the picture of them.
 *
 * The consumer's write also brings the data it consumed under plan leases, which the shard keeps
 * on disk and, at its alarm once a lease ended, tells each metric's object (see pending-intake.ts):
 * the consumer's requests per batch stay one per shard, and no datum's count waits for a next
 * batch or is lost with the consumer's isolate. Times here are performance.now(), which in Workers
 * reads the time since the epoch and which tests that set the date leave alone.
 */
export class SummaryShard extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly pending: PendingIntake;
  private readonly epochs: PlanEpochs;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrateSchema(ctx.storage, schemaSteps);
    this.pending = new PendingIntake(this.sql, () => readConfig(env).PLAN_LEASE_MS);
    this.epochs = new PlanEpochs(this.sql);
  }

  /** The plan epoch of the shard's metrics (see plan-epochs.ts). */
  planEpoch(): number {
    return this.epochs.current();
  }

  /** Ends the trust in every plan of the shard's metrics leased so far (see plan-epochs.ts). */
  revokeLeasedPlans(): number {
    return this.epochs.advance();
  }

  /** Takes every version in `update` that is later than what the shard has, and its leased intake, in one transaction. */
  async apply(update: SummaryUpdate): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      if (update.leasedIntakes !== undefined) this.pending.add(update.leasedIntakes, performance.now());
      for (const figures of update.metrics ?? []) this.putMetric(figures);
      for (const state of update.metricStates ?? []) this.putMetricState(state);
      for (const snapshot of update.observers ?? []) this.putObserver(snapshot);
      for (const removal of update.removedMetrics ?? []) this.removeMetric(removal);
      for (const removal of update.removedObservers ?? []) this.removeObserver(removal);
      const forgotten = Date.now() - removalKeptMs;
      this.sql.exec("DELETE FROM metric WHERE removed = 1 AND at < ?", forgotten);
      this.sql.exec("DELETE FROM observer WHERE removed = 1 AND at < ?", forgotten);
    });
    if (update.leasedIntakes !== undefined) await this.scheduleAlarm();
  }

  /**
   * Tells each metric whose intake is due all it has pending, and takes the figures its object
   * answers. A metric's rows go in the same step as its object's answer arrives, so an alarm run
   * again does not tell it twice; a metric that could not be told is told again later.
   */
  override async alarm(): Promise<void> {
    const now = performance.now();
    await Promise.all(this.pending.due(now, metricsPerAlarm).map((due) => this.tell(due, now)));
    await this.scheduleAlarm();
  }

  /** The live metrics and observers, and the removals of selector observers. */
  read(): ShardContent {
    const metrics = this.sql
      .exec<{ figures: string }>("SELECT figures FROM metric WHERE removed = 0")
      .toArray()
      .map((row) => JSON.parse(row.figures) as MetricFigures);
    const observers = this.sql
      .exec<ObserverRow>(
        "SELECT id, at, removed, metric, report, listed_at FROM observer WHERE removed = 0 OR metric IS NULL",
      )
      .toArray()
      .map((row) => ({
        id: row.id,
        at: row.at,
        ...(row.metric === null ? {} : { metric: row.metric }),
        report: (row.report === null ? null : JSON.parse(row.report)) as SummarizedObserver,
        removed: row.removed === 1,
        listedAt: row.listed_at,
      }));
    return { metrics, observers };
  }

  private async tell(due: DueIntake, now: number): Promise<void> {
    const { metric, intake } = due;
    try {
      const figures = await metricStub(this.env, metric).recordLeasedIntake(metric, intake);
      this.ctx.storage.transactionSync(() => {
        this.pending.settle(due);
        this.putMetric(figures);
      });
    } catch (error) {
      console.error(
        `data of ${JSON.stringify(metric)} not recorded: ${error instanceof Error ? error.message : error}`,
      );
      this.pending.postpone(due, now + retryAfterMs);
    }
  }

  /**
   * Sets the alarm for the earliest pending intake, unless one is set before it. An alarm in the
   * past is the one running (or about to): it may have chosen its metrics before this intake came.
   */
  private async scheduleAlarm(): Promise<void> {
    const dueAt = this.pending.nextDueAt();
    if (dueAt === undefined) return;
    const now = performance.now();
    const set = await this.ctx.storage.getAlarm();
    if (set === null || set <= now || set > dueAt) await this.ctx.storage.setAlarm(Math.max(dueAt, now));
  }

  private putMetric(figures: MetricFigures): void {
    this.sql.exec(
      `INSERT INTO metric (name, at, removed, figures) VALUES (?, ?, 0, ?)
       ON CONFLICT (name) DO UPDATE SET at = excluded.at, removed = 0, figures = excluded.figures
       WHERE ${newer("metric")}`,
      figures.name,
      figures.at,
      JSON.stringify(figures),
    );
  }

  /** The metric and its observers; those of its observers the shard has and the state lacks are gone. */
  private putMetricState({ figures, observers }: MetricState): void {
    this.putMetric(figures);
    for (const snapshot of observers) this.putObserver(snapshot);
    this.sql.exec(
      `UPDATE observer SET removed = 1, report = NULL, at = ?1
       WHERE metric = ?2 AND removed = 0 AND at <= ?1 AND id NOT IN (SELECT value FROM json_each(?3))`,
      figures.at,
      figures.name,
      JSON.stringify(observers.map((snapshot) => snapshot.id)),
    );
  }

  private putObserver(snapshot: ObserverSnapshot): void {
    this.sql.exec(
      `INSERT INTO observer (id, at, removed, metric, report, listed_at) VALUES (?1, ?2, 0, ?3, ?4, ?2)
       ON CONFLICT (id) DO UPDATE SET at = excluded.at, removed = 0, metric = excluded.metric, report = excluded.report
       WHERE ${newer("observer")}`,
      snapshot.id,
      snapshot.at,
      snapshot.metric ?? null,
      JSON.stringify(snapshot.report),
    );
  }

  private removeMetric({ key, at }: Removal): void {
    this.pending.dropMetric(key);
    this.sql.exec(
      `INSERT INTO metric (name, at, removed, figures) VALUES (?, ?, 1, NULL)
       ON CONFLICT (name) DO UPDATE SET at = excluded.at, removed = 1, figures = NULL WHERE ${newer("metric")}`,
      key,
      at,
    );
    this.sql.exec(
      "UPDATE observer SET removed = 1, report = NULL, at = ?1 WHERE metric = ?2 AND removed = 0 AND at <= ?1",
      at,
      key,
    );
  }

  private removeObserver({ key, at }: Removal): void {
    this.sql.exec(
      `INSERT INTO observer (id, at, removed, metric, report, listed_at) VALUES (?1, ?2, 1, NULL, NULL, ?2)
       ON CONFLICT (id) DO UPDATE SET at = excluded.at, removed = 1, report = NULL WHERE ${newer("observer")}`,
      key,
      at,
    );
  }
}

/** The summary shard `index` (0 to summaryShardCount - 1). */
export function summaryShardStub(env: Env, index: number): DurableObjectStub<SummaryShard> {
  if (!(index >= 0 && index < summaryShardCount)) throw new RangeError(`no summary shard ${index}`);
  return countingRequests(env.SUMMARY_SHARD.get(env.SUMMARY_SHARD.idFromName(`summary-${index}`)), "SUMMARY_SHARD");
}
