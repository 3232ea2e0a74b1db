import { DurableObject } from "cloudflare:workers";
import type { DeliveryOutcome, DeliveryStatus } from "../delivery/vocabulary";
import type { MetricDeclaration, MetricView } from "./metric-schema";
import {
    type ObserverRegistration,
  type ObserverReport,
  type ObserverTarget,
  observerAddress,
  type PublicObserver,
} from "./observer-schema";
import type { ObserverFormat, ObserverProtocol } from "./observer-kinds";
import { countingRequests } from "../ops/usage";
import { metricCatalogStub } from "./metric-catalog";

export type ObserverRegistrationResult =
  | { outcome: "created" | "existing"; observer: PublicObserver }
  | { outcome: "unknown-metric" }
  | { outcome: "limit-reached" };

type MetricRow = { name: string; description: string | null; unit: string | null; listed: number };

type ObserverRow = {
  id: string;
  format: ObserverFormat;
  protocol: ObserverProtocol;
  callback_url: string | null;
  observer_host: string | null;
  observer_port: number | null;
  secret: string | null;
  delivered: number;
  failed: number;
  lost: number;
  last_success_at: number | null;
  last_failure_at: number | null;
  last_error: string | null;
};

const observerColumns =
  "id, format, protocol, callback_url, observer_host, observer_port, secret, " +
  "delivered, failed, lost, last_success_at, last_failure_at, last_error";

function publicObserver(row: ObserverRow): PublicObserver {
  const address =
    row.callback_url === null
      ? { observerHost: row.observer_host!, observerPort: row.observer_port! }
      : { callbackUrl: row.callback_url };
  return { id: row.id, format: row.format, protocol: row.protocol, ...address };
}

function toTarget(row: ObserverRow): ObserverTarget {
  return row.secret === null ? publicObserver(row) : { ...publicObserver(row), secret: row.secret };
}

function isoTime(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

function deliveryStatus(row: ObserverRow): DeliveryStatus {
  return {
    delivered: row.delivered,
    failed: row.failed,
    lost: row.lost,
    lastSuccessAt: isoTime(row.last_success_at),
    lastFailureAt: isoTime(row.last_failure_at),
    lastError: row.last_error,
  };
}

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
      CREATE TABLE IF NOT EXISTS observer (
        id TEXT PRIMARY KEY,
        format TEXT NOT NULL,
        protocol TEXT NOT NULL,
        address TEXT NOT NULL,
        callback_url TEXT,
        observer_host TEXT,
        observer_port INTEGER,
        secret TEXT,
        delivered INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        lost INTEGER NOT NULL DEFAULT 0,
        last_success_at INTEGER,
        last_failure_at INTEGER,
        last_error TEXT
      );
      CREATE UNIQUE INDEX IF NOT EXISTS observer_target ON observer (format, protocol, address);
    `);
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
      observers: this.observerCount(),
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
        this.sql.exec("DELETE FROM observer");
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
    const address = observerAddress(registration);
    const secret = registration.secret ?? null;
    const existing = this.sql
      .exec<ObserverRow>(
        `SELECT ${observerColumns} FROM observer WHERE format = ? AND protocol = ? AND address = ?`,
        registration.format,
        registration.protocol,
        address,
      )
      .toArray()[0];
    if (existing) {
      this.sql.exec("UPDATE observer SET secret = ? WHERE id = ?", secret, existing.id);
      return { outcome: "existing", observer: publicObserver(existing) };
    }
    if (this.observerCount() >= maxObservers) return { outcome: "limit-reached" };
    const created = this.sql
      .exec<ObserverRow>(
        `INSERT INTO observer (id, format, protocol, address, callback_url, observer_host, observer_port, secret)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${observerColumns}`,
        crypto.randomUUID(),
        registration.format,
        registration.protocol,
        address,
        registration.callbackUrl ?? null,
        registration.observerHost ?? null,
        registration.observerPort ?? null,
        secret,
      )
      .one();
    return { outcome: "created", observer: publicObserver(created) };
  }

  /** The observers in registration order; null if the metric does not exist. */
  listObservers(): PublicObserver[] | null {
    if (!this.metricRow()) return null;
    return this.observerRows().map(publicObserver);
  }

  observerReport(observerId: string): ObserverReport | null {
    const row = this.observerRow(observerId);
    return row ? { ...publicObserver(row), status: deliveryStatus(row) } : null;
  }

  /** Every observer of the metric, secrets included; creates the metric if it does not exist. */
  async deliveryTargets(name: string): Promise<ObserverTarget[]> {
    await this.ensureMetric(name);
    return this.observerRows().map(toTarget);
  }

  /** One observer, secret included; null once it was removed. */
  observerTarget(observerId: string): ObserverTarget | null {
    const row = this.observerRow(observerId);
    return row ? toTarget(row) : null;
  }

  /**
   * Adds delivery outcomes to the observers' status. Outcomes of observers removed meanwhile are
   * dropped. The last-* fields keep the latest outcome even when reports arrive out of order.
   */
  recordDeliveries(outcomes: DeliveryOutcome[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const { observerId, ok, data, at, error, lost } of outcomes) {
        if (ok) {
          this.sql.exec(
            `UPDATE observer SET delivered = delivered + ?, last_success_at = MAX(COALESCE(last_success_at, ?), ?)
             WHERE id = ?`,
            data,
            at,
            at,
            observerId,
          );
        } else {
          this.sql.exec(
            `UPDATE observer SET failed = failed + 1, lost = lost + ?,
               last_error = CASE WHEN last_failure_at IS NULL OR last_failure_at <= ? THEN ? ELSE last_error END,
               last_failure_at = MAX(COALESCE(last_failure_at, ?), ?)
             WHERE id = ?`,
            lost ? data : 0,
            at,
            error ?? null,
            at,
            at,
            observerId,
          );
        }
      }
    });
  }

  /** Removes one observer; false if there was none with that id. */
  removeObserver(observerId: string): boolean {
    return this.sql.exec("DELETE FROM observer WHERE id = ?", observerId).rowsWritten > 0;
  }

  private metricRow(): MetricRow | undefined {
    return this.sql.exec<MetricRow>("SELECT name, description, unit, listed FROM metric").toArray()[0];
  }

  private observerCount(): number {
    return this.sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM observer").one().count;
  }

  private observerRows(): ObserverRow[] {
    return this.sql.exec<ObserverRow>(`SELECT ${observerColumns} FROM observer ORDER BY rowid`).toArray();
  }

  private observerRow(observerId: string): ObserverRow | undefined {
    return this.sql.exec<ObserverRow>(`SELECT ${observerColumns} FROM observer WHERE id = ?`, observerId).toArray()[0];
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
