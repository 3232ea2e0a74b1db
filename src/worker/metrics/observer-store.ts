import type { DeliveryOutcome, DeliveryStatus } from "../delivery/vocabulary";
import type { ObserverFormat, ObserverProtocol } from "./observer-kinds";
import {
  type ObserverRegistration,
  type ObserverReport,
  type ObserverTarget,
  observerAddress,
  type PublicObserver,
} from "./observer-schema";

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
 * The observers of one metric and their delivery status, in the metric's SQLite storage. Callers
 * (the metric's Durable Object) decide when; this class holds every statement.
 */
export class ObserverStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`
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

  count(): number {
    return this.sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM observer").one().count;
  }

  /** The observer with the same format, protocol and address as `registration`, if any. */
  findSameTarget(registration: ObserverRegistration): PublicObserver | undefined {
    const row = this.sql
      .exec<ObserverRow>(
        `SELECT ${observerColumns} FROM observer WHERE format = ? AND protocol = ? AND address = ?`,
        registration.format,
        registration.protocol,
        observerAddress(registration),
      )
      .toArray()[0];
    return row && publicObserver(row);
  }

  setSecret(observerId: string, secret: string | null): void {
    this.sql.exec("UPDATE observer SET secret = ? WHERE id = ?", secret, observerId);
  }

  insert(registration: ObserverRegistration): PublicObserver {
    const created = this.sql
      .exec<ObserverRow>(
        `INSERT INTO observer (id, format, protocol, address, callback_url, observer_host, observer_port, secret)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${observerColumns}`,
        crypto.randomUUID(),
        registration.format,
        registration.protocol,
        observerAddress(registration),
        registration.callbackUrl ?? null,
        registration.observerHost ?? null,
        registration.observerPort ?? null,
        registration.secret ?? null,
      )
      .one();
    return publicObserver(created);
  }

  /** Every observer in registration order. */
  list(): PublicObserver[] {
    return this.rows().map(publicObserver);
  }

  /** Every observer in registration order, secrets included. */
  targets(): ObserverTarget[] {
    return this.rows().map(toTarget);
  }

  target(observerId: string): ObserverTarget | undefined {
    const row = this.row(observerId);
    return row && toTarget(row);
  }

  report(observerId: string): ObserverReport | undefined {
    const row = this.row(observerId);
    return row && { ...publicObserver(row), status: deliveryStatus(row) };
  }

  /**
   * Adds delivery outcomes to the observers' status. Outcomes of observers removed meanwhile are
   * dropped. The last-* fields keep the latest outcome even when reports arrive out of order.
   */
  recordDeliveries(outcomes: readonly DeliveryOutcome[]): void {
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
  }

  /** Removes one observer; false if there was none with that id. */
  remove(observerId: string): boolean {
    return this.sql.exec("DELETE FROM observer WHERE id = ?", observerId).rowsWritten > 0;
  }

  clear(): void {
    this.sql.exec("DELETE FROM observer");
  }

  private rows(): ObserverRow[] {
    return this.sql.exec<ObserverRow>(`SELECT ${observerColumns} FROM observer ORDER BY rowid`).toArray();
  }

  private row(observerId: string): ObserverRow | undefined {
    return this.sql.exec<ObserverRow>(`SELECT ${observerColumns} FROM observer WHERE id = ?`, observerId).toArray()[0];
  }
}
