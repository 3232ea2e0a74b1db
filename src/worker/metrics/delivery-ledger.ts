import { usage } from "../common/usage";
import { retryDelayMs, scheduleSpanMs } from "../delivery/retry-schedule";
import type { DatumRow } from "../vocabulary/datum";
import { type AttemptReport, type BatchReport, newWebhookId } from "../vocabulary/delivery";
import type { AttemptLog } from "./attempt-log";
import type { BacklogChunk, BacklogStore } from "./backlog-store";
import type { ObserverStore } from "./observer-store";

/** The settings that decide what happens to undelivered data. */
export interface LedgerPolicy {
  RETRY_SCHEDULE: readonly number[];
  MAX_BACKLOG_DATA: number;
  DISABLE_AFTER_HOURS: number;
  DEAD_RETENTION_HOURS: number;
}

const hourMs = 3_600_000;

/**
 * The bookkeeping of deliveries to one metric's observers: every attempt goes to the attempt log
 * and the observer's counters; what an observer did not receive goes to its backlog, in order,
 * within its cap; a failure schedules the next attempt and, after the whole schedule, makes data
 * dead; a long outage disables the observer. Callers run each method in one storage transaction.
 * `Item` is what the backlog holds of a datum (see BacklogStore).
 */
export class DeliveryLedger<Item = DatumRow> {
  constructor(
    private readonly observers: ObserverStore,
    private readonly backlog: BacklogStore<Item>,
    private readonly attempts: AttemptLog,
    private readonly policy: LedgerPolicy,
  ) {}

  /** A consumer batch's attempts and owed data. Returns the observers that became disabled. */
  recordBatch(report: BatchReport<Item>, now: number): string[] {
    const disabled: string[] = [];
    const failedNow = new Map<string, AttemptReport>();
    for (const attempt of report.attempts) {
      if (!this.observers.target(attempt.observerId, now)) continue;
      this.logAttempt(attempt);
      if (attempt.gone) this.remove(attempt.observerId);
      else if (isFailure(attempt)) failedNow.set(attempt.observerId, attempt);
    }
    for (const owed of report.owed) {
      for (const observer of owed.observers) {
        const failure = failedNow.get(observer.id);
        this.owe(observer.id, owed.rows, {
          webhookId: observer.webhookId ?? newWebhookId(),
          via: owed.via,
          attempts: observer.attempts,
          acceptedAt: now,
          ...(failure ? { failedAt: failure.at } : {}),
          ...(observer.refused ? { deadAt: now } : {}),
        });
      }
    }
    for (const [observerId, failure] of failedNow) {
      if (this.scheduleAfterFailure(observerId, failure, now)) disabled.push(observerId);
    }
    return disabled;
  }

  /** The oldest undelivered data of an active observer whose turn has come. */
  due(now: number): string[] {
    return this.observers.due(now);
  }

  head(observerId: string): BacklogChunk<Item> | undefined {
    return this.backlog.head(observerId);
  }

  /** An attempt at `chunk` starts; its data are fixed from now on. */
  startAttempt(chunk: BacklogChunk<Item>): void {
    this.backlog.startAttempt(chunk.seq);
  }

  /**
   * The outcome of an attempt at an observer's backlog head. Returns whether to go on with the next
   * chunk (it was delivered), and whether the observer became disabled.
   */
  recordBacklogAttempt(
    chunk: BacklogChunk<Item>,
    attempt: AttemptReport,
    now: number,
  ): { next: boolean; disabled: boolean } {
    const { observerId } = attempt;
    if (!this.observers.target(observerId, now)) return { next: false, disabled: false };
    this.logAttempt(attempt);
    if (attempt.gone) {
      this.remove(observerId);
      return { next: false, disabled: false };
    }
    if (attempt.ok) {
      // Data the cap cut from the chunk while it was on its way were counted dropped; they arrived.
      const held = this.backlog.remove(chunk.seq);
      this.observers.adjustBacklog(observerId, { pending: -held, dropped: held - chunk.data });
      this.observers.schedule(observerId, now, 0);
      return { next: true, disabled: false };
    }
    if (attempt.deferred) {
      this.observers.schedule(observerId, now, this.ledgerOf(observerId, now).retry_step);
      return { next: false, disabled: false };
    }
    if (attempt.refused) {
      // Refused for good: the data are dead, kept for replay, and the observer goes on with what follows.
      const dead = this.backlog.markDead(chunk.seq, now);
      this.observers.adjustBacklog(observerId, { pending: -dead, dead });
      this.observers.schedule(observerId, now, this.ledgerOf(observerId, now).retry_step);
      return { next: true, disabled: false };
    }
    const dead = this.backlog.recordFailure(observerId, now, now - scheduleSpanMs(this.policy.RETRY_SCHEDULE));
    if (dead > 0) this.observers.adjustBacklog(observerId, { pending: -dead, dead });
    return { next: false, disabled: this.scheduleAfterFailure(observerId, attempt, now) };
  }

  /**
   * Observers that took a batch's delivery while older data wait in their backlog (the delivery was
   * planned before the backlog began) are up again: their backlog is tried now, not at its scheduled
   * retry, which may be hours away. Returns whether any attempt was brought forward.
   */
  bringForward(report: BatchReport<Item>, now: number): boolean {
    const failed = new Set(report.attempts.filter(isFailure).map((attempt) => attempt.observerId));
    const succeeded = new Set(report.attempts.filter((attempt) => attempt.ok).map((attempt) => attempt.observerId));
    let brought = false;
    for (const observerId of succeeded) {
      const ledger = failed.has(observerId) ? undefined : this.observers.target(observerId, now)?.ledger;
      if (ledger?.state !== "active" || ledger.backlog === 0) continue;
      if (ledger.next_attempt_at !== null && ledger.next_attempt_at <= now) continue;
      this.observers.schedule(observerId, now, ledger.retry_step);
      brought = true;
    }
    return brought;
  }

  /**
   * Retry now: the observer's waiting data are due at once. The schedule's step stays, so that a
   * failure waits as long as the one before would have. Dead data stay dead (a replay brings them back).
   */
  retryNow(observerId: string, now: number): void {
    this.observers.schedule(observerId, now, this.ledgerOf(observerId, now).retry_step);
  }

  /**
   * A paused or disabled observer becomes active again. Its waiting data start a new run of the
   * retry schedule: time spent held does not count towards making them dead.
   */
  resume(observerId: string, now: number): void {
    this.observers.resume(observerId, now);
    this.backlog.restartSchedule(observerId);
  }

  /** Dead data accepted in [since, until] go back to the backlog; returns how many. */
  replay(observerId: string, since: number, until: number, now: number): number {
    const data = this.backlog.replay(observerId, since, until);
    if (data > 0) {
      this.observers.adjustBacklog(observerId, { pending: data, dead: -data });
      // A replay is a fresh start: an outage that ended before it does not count towards disabling.
      this.observers.restartOutage(observerId, now);
    }
    return data;
  }

  /** Drops the dead data whose retention has ended. */
  sweep(now: number): void {
    for (const [observerId, data] of this.backlog.dropDead(now - this.policy.DEAD_RETENTION_HOURS * hourMs)) {
      this.observers.adjustBacklog(observerId, { dead: -data, dropped: data });
    }
  }

  /** When the metric's object has work next: a due backlog, or dead data whose retention ends. */
  nextWake(): number | null {
    const due = this.observers.nextDue();
    const oldestDead = this.backlog.oldestDeadAt();
    const retentionEnds = oldestDead === null ? null : oldestDead + this.policy.DEAD_RETENTION_HOURS * hourMs;
    const times = [due, retentionEnds].filter((time): time is number => time !== null);
    return times.length === 0 ? null : Math.min(...times);
  }

  oldestPendingAcceptedAt(observerId: string): number | null {
    return this.backlog.oldestPendingAcceptedAt(observerId);
  }

  remove(observerId: string): void {
    this.observers.remove(observerId);
    this.backlog.removeObserver(observerId);
    this.attempts.removeObserver(observerId);
  }

  clear(): void {
    this.observers.clear();
    this.backlog.clear();
    this.attempts.clear();
  }

  private logAttempt(attempt: AttemptReport): void {
    this.attempts.add(attempt, this.observers.nextAttemptSequence(attempt.observerId));
    if (attempt.ok) this.observers.recordSuccess(attempt.observerId, attempt.data, attempt.at, attempt.rejected ?? 0);
    else if (!attempt.deferred && !attempt.gone) {
      // A refusal is not an outage: the observer answers, it does not take these data.
      const outage = !attempt.refused;
      this.observers.recordFailure(attempt.observerId, attempt.error ?? "delivery failed", attempt.at, outage);
    }
  }

  /**
   * Appends data to the observer's backlog (as dead data when refused for good) and keeps it within
   * the cap, the oldest going first.
   */
  private owe(
    observerId: string,
    rows: readonly Item[],
    chunk: {
      webhookId: string;
      via?: readonly string[];
      attempts: number;
      acceptedAt: number;
      failedAt?: number;
      deadAt?: number;
    },
  ): void {
    const ledger = this.observers.target(observerId, chunk.acceptedAt)?.ledger;
    if (!ledger) return;
    this.backlog.append(observerId, { ...chunk, rows });
    usage.backlogDataWritten += rows.length;
    this.observers.adjustBacklog(
      observerId,
      chunk.deadAt === undefined ? { pending: rows.length } : { dead: rows.length },
    );
    const excess = ledger.backlog + ledger.dead + rows.length - this.policy.MAX_BACKLOG_DATA;
    if (excess > 0) {
      const dropped = this.backlog.trim(observerId, excess);
      this.observers.adjustBacklog(observerId, {
        pending: -dropped.pending,
        dead: -dropped.dead,
        dropped: dropped.pending + dropped.dead,
      });
    }
    // An observer with nothing scheduled (its backlog was empty) is tried at once; one that failed
    // is rescheduled after this by its failure.
    if (chunk.deadAt === undefined && (ledger.backlog === 0 || ledger.next_attempt_at === null)) {
      this.observers.schedule(observerId, chunk.acceptedAt, ledger.retry_step);
    }
  }

  /** Schedules the next attempt after a failure; returns true when the observer is disabled now. */
  private scheduleAfterFailure(observerId: string, failure: AttemptReport, now: number): boolean {
    const ledger = this.ledgerOf(observerId, now);
    const step = ledger.retry_step + 1;
    const delay = retryDelayMs(this.policy.RETRY_SCHEDULE, step - 1, {
      ...(failure.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: failure.retryAfterSeconds }),
    });
    this.observers.schedule(observerId, now + delay, step);
    const failingFor = now - (ledger.failing_since ?? now);
    if (ledger.state !== "active" || failingFor < this.policy.DISABLE_AFTER_HOURS * hourMs) return false;
    this.observers.disable(observerId);
    return true;
  }

  private ledgerOf(observerId: string, now: number) {
    return this.observers.target(observerId, now)!.ledger;
  }
}

/**
 * An attempt that failed and is to be retried: neither a success nor one cut short by the batch's
 * budget, nor a 410, nor data refused for good.
 */
function isFailure(attempt: AttemptReport): boolean {
  return !attempt.ok && !attempt.deferred && !attempt.gone && !attempt.refused;
}
