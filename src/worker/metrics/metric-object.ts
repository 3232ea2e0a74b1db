import { DurableObject } from "cloudflare:workers";
import type { DeliveryOutcome } from "../delivery/vocabulary";
import { countingRequests } from "../ops/usage";
import { metricCatalogStub } from "./metric-catalog";
import type { MetricDeclaration, MetricView } from "./metric-schema";
import type { ObserverRegistration, ObserverReport, ObserverTarget, PublicObserver } from "./observer-schema";
import { ObserverStore } from "./observer-store";

export type ObserverRegistrationResult =
  | { outcome: "created" | "existing"; observer: PublicObserver }
  | { outcome: "unknown-metric" }
  | { outcome: "limit-reached" };

type MetricRow = { name: string; description: string | null; unit: string | null; listed: number };

/**
 * One metric (one object per metric name): its declaration, its observers and their delivery
 * status. The delivery side reads the observers here on every batch, so they are never stale.
 *
 * `listed` records whether the catalog knows the metric. It is set only after the catalog
 * confirmed, and cleared before the catalog is told of a deletion, so an interrupted creation or
 * deletion is repaired by the next touch of the metric instead of leaving the catalog wrong.
 */
export class MetricObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly observers: ObserverStore;
  /** The tail of the creations and deletions, which run one at a time (they await the catalog). */
  private lifecycle: Promise<unknown> = Promise.resolve();

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
    `);
    this.observers = new ObserverStore(this.sql);
  }

  /** Creates the metric if it does not exist. Costs one local read when it does. */
  async ensureMetric(name: string): Promise<void> {
    if (this.metricRow()?.listed) return;
    await this.serially(async () => {
      this.sql.exec("INSERT OR IGNORE INTO metric (singleton, name) VALUES (1, ?)", name);
      await this.listInCatalog();
    });
  }

  /** Creates the metric or replaces its description and unit; `created` tells which. */
  async declareMetric(name: string, declaration: MetricDeclaration): Promise<{ created: boolean; metric: MetricView }> {
    return this.serially(async () => {
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
    };
  }

  /** Deletes the metric with its observers; false if it does not exist. */
  async deleteMetric(): Promise<boolean> {
    return this.serially(async () => {
      const metric = this.metricRow();
      if (!metric) return false;
      this.sql.exec("UPDATE metric SET listed = 0");
      await metricCatalogStub(this.env).remove(metric.name);
      this.ctx.storage.transactionSync(() => {
        this.observers.clear();
        this.sql.exec("DELETE FROM metric");
      });
      return true;
    });
  }

  /**
   * Adds an observer, or finds the one with the same format, protocol and address (whose secret
   * then becomes the one given: the latest registration says how the observer wants to be signed).
   */
  registerObserver(registration: ObserverRegistration, maxObservers: number): ObserverRegistrationResult {
    if (!this.metricRow()) return { outcome: "unknown-metric" };
    const existing = this.observers.findSameTarget(registration);
    if (existing) {
      this.observers.setSecret(existing.id, registration.secret ?? null);
      return { outcome: "existing", observer: existing };
    }
    if (this.observers.count() >= maxObservers) return { outcome: "limit-reached" };
    return { outcome: "created", observer: this.observers.insert(registration) };
  }

  /** The observers in registration order; null if the metric does not exist. */
  listObservers(): PublicObserver[] | null {
    if (!this.metricRow()) return null;
    return this.observers.list();
  }

  observerReport(observerId: string): ObserverReport | null {
    return this.observers.report(observerId) ?? null;
  }

  /** Every observer of the metric, secrets included; creates the metric if it does not exist. */
  async deliveryTargets(name: string): Promise<ObserverTarget[]> {
    await this.ensureMetric(name);
    return this.observers.targets();
  }

  /** One observer, secret included; null once it was removed. */
  observerTarget(observerId: string): ObserverTarget | null {
    return this.observers.target(observerId) ?? null;
  }

  /** Adds delivery outcomes to the observers' status, all in one transaction. */
  recordDeliveries(outcomes: DeliveryOutcome[]): void {
    this.ctx.storage.transactionSync(() => this.observers.recordDeliveries(outcomes));
  }

  /** Removes one observer; false if there was none with that id. */
  removeObserver(observerId: string): boolean {
    return this.observers.remove(observerId);
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

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.lifecycle.then(work);
    this.lifecycle = result.catch(() => undefined);
    return result;
  }
}

/** The Durable Object that holds the metric `name`. */
export function metricStub(env: Env, name: string): DurableObjectStub<MetricObject> {
  return countingRequests(env.METRIC.get(env.METRIC.idFromName(name)));
}
