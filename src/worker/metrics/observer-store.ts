import {
  acknowledgementOf,
  type DeliveryStatus,
  type DeliveryTarget,
  type ObserverState,
} from "../vocabulary/delivery";
import type { ObserverFormat, ObserverProtocol } from "./observer-kinds";
import {
  type HttpDressing,
  type ObserverRegistration,
  type ObserverReport,
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
  previous_secret: string | null;
  previous_secret_until: number | null;
  headers: string | null;
  method: NonNullable<DeliveryTarget["method"]> | null;
  state: ObserverState;
  delivered: number;
  failed: number;
  dead: number;
  dropped: number;
  rejected: number;
  backlog: number;
  attempts_logged: number;
  retry_step: number;
  next_attempt_at: number | null;
  failing_since: number | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  last_error: string | null;
};

/** An observer's delivery bookkeeping, as the retry logic reads it. */
export type ObserverLedger = Pick<
  ObserverRow,
  "id" | "state" | "backlog" | "dead" | "retry_step" | "next_attempt_at" | "failing_since"
>;

const observerColumns =
  "id, format, protocol, callback_url, observer_host, observer_port, secret, previous_secret, " +
  "previous_secret_until, headers, method, state, delivered, failed, dead, dropped, rejected, backlog, attempts_logged, " +
  "retry_step, next_attempt_at, failing_since, last_success_at, last_failure_at, last_error";

function publicObserver(row: ObserverRow): PublicObserver {
  const address =
    row.callback_url === null
      ? { observerHost: row.observer_host!, observerPort: row.observer_port! }
      : { callbackUrl: row.callback_url };
  return { id: row.id, format: row.format, protocol: row.protocol, ...address, state: row.state };
}

function toTarget(row: ObserverRow, now: number): DeliveryTarget {
  const { secret, previous_secret: previous, previous_secret_until: until } = row;
  const secrets = [secret, previous !== null && until !== null && until > now ? previous : null];
  return {
    ...publicObserver(row),
    secrets: secrets.filter((value): value is string => value !== null),
    headers: row.headers === null ? {} : (JSON.parse(row.headers) as Record<string, string>),
    ...(row.method === null ? {} : { method: row.method }),
  };
}

function httpDressing(row: ObserverRow): HttpDressing | Record<string, never> {
  if (row.callback_url === null) return {};
  return { signed: row.secret !== null, headerNames: row.headers === null ? [] : Object.keys(JSON.parse(row.headers)) };
}

function isoTime(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

/** The fields a PATCH may change, as stored. */
export interface ObserverChanges {
  state?: "active" | "paused";
  /** The new secret, the current one signing beside it until `rotationEndsAt`; null: no signing. */
  secret?: string | null;
  rotationEndsAt?: number;
  headers?: Record<string, string>;
}

/** The observer table: a schema step of every object that holds observers. */
export const observerSchema = `
  CREATE TABLE observer (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    protocol TEXT NOT NULL,
    address TEXT NOT NULL,
    callback_url TEXT,
    observer_host TEXT,
    observer_port INTEGER,
    secret TEXT,
    previous_secret TEXT,
    previous_secret_until INTEGER,
    headers TEXT,
    method TEXT,
    state TEXT NOT NULL DEFAULT 'active',
    delivered INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    dead INTEGER NOT NULL DEFAULT 0,
    dropped INTEGER NOT NULL DEFAULT 0,
    rejected INTEGER NOT NULL DEFAULT 0,
    backlog INTEGER NOT NULL DEFAULT 0,
    attempts_logged INTEGER NOT NULL DEFAULT 0,
    retry_step INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    failing_since INTEGER,
    last_success_at INTEGER,
    last_failure_at INTEGER,
    last_error TEXT
  );
  CREATE UNIQUE INDEX observer_target ON observer (format, protocol, address);
`;

/**
 * The observers of one metric with their delivery status and retry bookkeeping, in the metric's
 * SQLite storage. Callers (the metric's Durable Object) decide when; this class holds every statement.
 */
export class ObserverStore {
  constructor(private readonly sql: SqlStorage) {}

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

  /** Adds an observer; `method` makes it a rule's REST call; `id` is given when another object chose it. */
  insert(
    registration: ObserverRegistration,
    secret: string | undefined,
    method?: DeliveryTarget["method"],
    id: string = crypto.randomUUID(),
  ): PublicObserver {
    const created = this.sql
      .exec<ObserverRow>(
        `INSERT INTO observer (id, format, protocol, address, callback_url, observer_host, observer_port, secret, headers, method)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${observerColumns}`,
        id,
        registration.format,
        registration.protocol,
        observerAddress(registration),
        registration.callbackUrl ?? null,
        registration.observerHost ?? null,
        registration.observerPort ?? null,
        secret ?? null,
        registration.headers === undefined ? null : JSON.stringify(registration.headers),
        method ?? null,
      )
      .one();
    return publicObserver(created);
  }

  /** Applies a PATCH (or a registration of the same target, which may bring a secret and headers). */
  change(observerId: string, changes: ObserverChanges): void {
    if (changes.state !== undefined) {
      this.sql.exec("UPDATE observer SET state = ? WHERE id = ?", changes.state, observerId);
    }
    if (changes.secret === null) {
      this.sql.exec(
        "UPDATE observer SET secret = NULL, previous_secret = NULL, previous_secret_until = NULL WHERE id = ?",
        observerId,
      );
    } else if (changes.secret !== undefined) {
      // The secret being replaced keeps signing beside the new one for the rotation's grace period.
      this.sql.exec(
        `UPDATE observer SET previous_secret = secret, previous_secret_until = ?, secret = ?
         WHERE id = ? AND secret IS NOT ?`,
        changes.rotationEndsAt ?? null,
        changes.secret,
        observerId,
        changes.secret,
      );
    }
    if (changes.headers !== undefined) {
      this.sql.exec("UPDATE observer SET headers = ? WHERE id = ?", JSON.stringify(changes.headers), observerId);
    }
  }

  /** Every observer in registration order. */
  list(): PublicObserver[] {
    return this.rows().map(publicObserver);
  }

  /** Every observer in registration order, as the delivery side needs it, with its ledger. */
  targets(now: number): { target: DeliveryTarget; ledger: ObserverLedger }[] {
    return this.rows().map((row) => ({ target: toTarget(row, now), ledger: row }));
  }

  target(observerId: string, now: number): { target: DeliveryTarget; ledger: ObserverLedger } | undefined {
    const row = this.row(observerId);
    return row && { target: toTarget(row, now), ledger: row };
  }

  /**
   * The observer as the API shows it, with its status (`oldestBacklogAt` comes from the backlog)
   * and, for HTTP, whether its deliveries are signed and which headers they carry.
   */
  report(observerId: string, oldestBacklogAt: number | null): ObserverReport | undefined {
    const row = this.row(observerId);
    if (!row) return undefined;
    const status: DeliveryStatus = {
      acknowledgement: acknowledgementOf(row.protocol),
      delivered: row.delivered,
      failed: row.failed,
      dead: row.dead,
      dropped: row.dropped,
      rejected: row.rejected,
      lost: row.dead + row.dropped,
      backlog: row.backlog,
      oldestBacklogAt: isoTime(oldestBacklogAt),
      nextAttemptAt: isoTime(row.state === "active" && row.backlog > 0 ? row.next_attempt_at : null),
      lastSuccessAt: isoTime(row.last_success_at),
      lastFailureAt: isoTime(row.last_failure_at),
      lastError: row.last_error,
    };
    return { ...publicObserver(row), ...httpDressing(row), status };
  }

  /** Data delivered: counted, and the observer is no longer failing. */
  recordSuccess(observerId: string, data: number, at: number, rejected = 0): void {
    this.sql.exec(
      `UPDATE observer SET delivered = delivered + ?, rejected = rejected + ?,
         last_success_at = MAX(COALESCE(last_success_at, ?), ?), failing_since = NULL, retry_step = 0
       WHERE id = ?`,
      data,
      rejected,
      at,
      at,
      observerId,
    );
  }

  /**
   * A failed attempt: counted, and the failure's time and reason kept (the latest wins, whatever the
   * order of reports); an `outage` (not a refusal of the data) starts the outage clock if it is not running.
   */
  recordFailure(observerId: string, error: string, at: number, outage = true): void {
    this.sql.exec(
      `UPDATE observer SET failed = failed + 1,
         last_error = CASE WHEN last_failure_at IS NULL OR last_failure_at <= ? THEN ? ELSE last_error END,
         last_failure_at = MAX(COALESCE(last_failure_at, ?), ?),
         failing_since = CASE WHEN ? THEN COALESCE(failing_since, ?) ELSE failing_since END
       WHERE id = ?`,
      at,
      error,
      at,
      at,
      outage ? 1 : 0,
      at,
      observerId,
    );
  }

  /** Reserves the attempt log's next sequence number of the observer. */
  nextAttemptSequence(observerId: string): number {
    return this.sql
      .exec<{ attempts_logged: number }>(
        "UPDATE observer SET attempts_logged = attempts_logged + 1 WHERE id = ? RETURNING attempts_logged",
        observerId,
      )
      .one().attempts_logged;
  }

  /** Moves data between the backlog's counters: `pending` and `dead` data gained (or lost, when negative), `dropped` data. */
  adjustBacklog(observerId: string, change: { pending?: number; dead?: number; dropped?: number }): void {
    this.sql.exec(
      "UPDATE observer SET backlog = backlog + ?, dead = dead + ?, dropped = dropped + ? WHERE id = ?",
      change.pending ?? 0,
      change.dead ?? 0,
      change.dropped ?? 0,
      observerId,
    );
  }

  /** When the observer's backlog is tried next, and after how many failed retries. */
  schedule(observerId: string, nextAttemptAt: number | null, retryStep: number): void {
    this.sql.exec(
      "UPDATE observer SET next_attempt_at = ?, retry_step = ? WHERE id = ?",
      nextAttemptAt,
      retryStep,
      observerId,
    );
  }

  disable(observerId: string): void {
    this.sql.exec("UPDATE observer SET state = 'disabled' WHERE id = ?", observerId);
  }

  /** Back to active: a new outage clock, a new run of the schedule, and the backlog tried at once. */
  resume(observerId: string, now: number): void {
    this.sql.exec(
      `UPDATE observer SET state = 'active', failing_since = NULL, retry_step = 0, next_attempt_at = ?
       WHERE id = ?`,
      now,
      observerId,
    );
  }

  /** A new outage clock and a new run of the schedule, the backlog tried at once; the state stays. */
  restartOutage(observerId: string, now: number): void {
    this.sql.exec(
      "UPDATE observer SET failing_since = NULL, retry_step = 0, next_attempt_at = ? WHERE id = ?",
      now,
      observerId,
    );
  }

  /** The earliest time an active observer's backlog is due, if any. */
  nextDue(): number | null {
    return this.sql
      .exec<{ due: number | null }>(
        "SELECT MIN(next_attempt_at) AS due FROM observer WHERE state = 'active' AND backlog > 0",
      )
      .one().due;
  }

  /** Active observers whose backlog is due by `now`. */
  due(now: number): string[] {
    return this.sql
      .exec<{ id: string }>(
        "SELECT id FROM observer WHERE state = 'active' AND backlog > 0 AND next_attempt_at <= ? ORDER BY rowid",
        now,
      )
      .toArray()
      .map((row) => row.id);
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
