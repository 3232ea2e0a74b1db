import { type Config, readConfig } from "../config";
import { reportAttempt } from "../delivery/attempt-report";
import { executeDeliveries } from "../delivery/transports/dispatch";
import { encodeIntakeMessages, sendMessages } from "../intake/queue-message";
import type {
  AttemptRecord,
  BatchReport,
  Delivery,
  DeliveryTarget,
  LabelChanges,
  MetricRun,
  ObserverPlan,
} from "../vocabulary/delivery";
import { AttemptLog } from "./attempt-log";
import { BacklogStore } from "./backlog-store";
import { BatchTurns } from "./batch-turns";
import { DeliveryLedger } from "./delivery-ledger";
import type { ObserverChange, ObserverReport } from "./observer-schema";
import { ObserverStore } from "./observer-store";

/** The metric under which observers that became disabled are announced. */
const observerDisabledMetric = "tower.observer.disabled";

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

/** What the desk needs of the Durable Object that holds it. */
export interface DeskHome<Item> {
  ctx: DurableObjectState;
  env: Env;
  /** How the backlog writes its items as JSON. */
  itemsJson: (items: readonly Item[]) => string;
  /** The payload's runs of a backlog chunk's items. */
  runsOf: (items: readonly Item[]) => readonly MetricRun[];
  /** The changes its observers make to the labels of what they receive, if any. */
  labelChanges?: () => LabelChanges | undefined;
}

/**
 * The observers of one Durable Object (a metric's, or one selector observer's) with everything
 * their deliveries need: status, attempt log, backlog and its schedule, the turns of consumer
 * batches, the object's alarm that delivers due backlogs, pausing, replay and retry now. The object
 * decides which observers it holds and what their data are (`Item`); the desk keeps the rest.
 */
export class ObserverDesk<Item> {
  readonly observers: ObserverStore;
  readonly attempts: AttemptLog;
  readonly ledger: DeliveryLedger<Item>;
  private readonly turns = new BatchTurns();

  constructor(private readonly home: DeskHome<Item>) {
    const { sql } = home.ctx.storage;
    this.observers = new ObserverStore(sql);
    this.attempts = new AttemptLog(sql);
    this.ledger = new DeliveryLedger(this.observers, new BacklogStore(sql, home.itemsJson), this.attempts, this.config);
  }

  private get config(): Config {
    return readConfig(this.home.env);
  }

  report(observerId: string): ObserverReport | null {
    return this.observers.report(observerId, this.ledger.oldestPendingAcceptedAt(observerId)) ?? null;
  }

  /** The observer's latest attempts, newest first; null if there is no such observer. */
  latestAttempts(observerId: string, limit: number): AttemptRecord[] | null {
    if (!this.observers.target(observerId, Date.now())) return null;
    return this.attempts.latest(observerId, limit);
  }

  /** Pauses, resumes, re-keys or changes the headers of an observer. */
  async change(observerId: string, change: ObserverChange): Promise<ObserverChangeResult> {
    const now = Date.now();
    const found = this.observers.target(observerId, now);
    if (!found) return { outcome: "unknown-observer" };
    if (change.headers !== undefined && found.target.protocol !== "HTTP") return { outcome: "headers-not-http" };
    this.home.ctx.storage.transactionSync(() => {
      if (change.state === "active" && found.ledger.state !== "active") this.ledger.resume(observerId, now);
      this.observers.change(observerId, {
        ...(change.state === "paused" ? { state: "paused" } : {}),
        ...(change.secret === undefined ? {} : { secret: change.secret, rotationEndsAt: this.rotationEndsAt() }),
        ...(change.headers === undefined ? {} : { headers: change.headers }),
      });
    });
    await this.scheduleWake();
    return { outcome: "changed", report: this.report(observerId)! };
  }

  /** When a secret given now stops signing beside the next one. */
  rotationEndsAt(): number {
    return Date.now() + this.config.SECRET_ROTATION_HOURS * 3_600_000;
  }

  /** Puts the observer's dead data accepted within the range back into its backlog; null if there is no such observer. */
  async replay(observerId: string, since: number, until: number): Promise<number | null> {
    const now = Date.now();
    if (!this.observers.target(observerId, now)) return null;
    const data = this.home.ctx.storage.transactionSync(() => this.ledger.replay(observerId, since, until, now));
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
    this.home.ctx.storage.transactionSync(() => this.ledger.retryNow(observerId, now));
    await this.scheduleWake();
    return { outcome: "started", report: this.report(observerId)! };
  }

  /** Removes one observer with its backlog and attempts; false if there was none with that id. */
  remove(observerId: string): boolean {
    if (!this.observers.target(observerId, Date.now())) return false;
    this.home.ctx.storage.transactionSync(() => this.ledger.remove(observerId));
    return true;
  }

  /** Removes every observer with its backlog and attempts. */
  async clear(): Promise<void> {
    this.home.ctx.storage.transactionSync(() => this.ledger.clear());
    await this.home.ctx.storage.deleteAlarm();
  }

  /**
   * How a batch treats each observer: delivered to now, or held (its data go to its backlog), with
   * how long its latest successful attempt took, which tells how long the batch waits for it. A
   * batch of data that delivers to some observer directly gets the turn (see BatchTurns), once the
   * batch before recorded its outcome.
   */
  async plan(data: number): Promise<{ observers: ObserverPlan[]; turn?: number }> {
    const turn =
      data > 0 && this.observers.count() > 0
        ? await this.turns.take(turnLeaseInBudgets * this.config.DELIVERY_BUDGET_MS)
        : undefined;
    const observers = this.observers.targets(Date.now()).map(({ target, ledger }): ObserverPlan => {
      const held = ledger.state !== "active" || ledger.backlog > 0;
      const answeredInMs = held ? undefined : this.latestAnswerMs(target.id);
      return { target: this.dressed(target), held, ...(answeredInMs === undefined ? {} : { answeredInMs }) };
    });
    if (turn === undefined) return { observers };
    if (observers.every((observer) => observer.held)) {
      this.turns.handBack(turn);
      return { observers };
    }
    return { observers, turn };
  }

  /**
   * A consumer batch's attempts and the data its observers did not receive, recorded in one
   * transaction: when this returns, those data are on disk in the backlogs.
   */
  async recordBatch(report: BatchReport<Item>): Promise<void> {
    const now = Date.now();
    const { disabled, broughtForward } = this.home.ctx.storage.transactionSync(() => ({
      disabled: this.ledger.recordBatch(report, now),
      broughtForward: this.ledger.bringForward(report, now),
    }));
    if (report.turn !== undefined) this.turns.handBack(report.turn);
    if (report.owed.length > 0 || disabled.length > 0 || broughtForward) await this.scheduleWake();
    await this.announceDisabled(disabled, now);
  }

  /** The alarm's work: drops the dead data whose retention ended, and tries the backlogs that are due. */
  async deliverDue(): Promise<void> {
    this.home.ctx.storage.transactionSync(() => this.ledger.sweep(Date.now()));
    const due = this.ledger.due(Date.now());
    await Promise.all(due.map((observerId) => this.drain(observerId)));
    await this.scheduleWake();
  }

  /** Sets the alarm to the next time there is work, or removes it. */
  async scheduleWake(): Promise<void> {
    const wake = this.ledger.nextWake();
    const { storage } = this.home.ctx;
    if (wake === null) await storage.deleteAlarm();
    else await storage.setAlarm(Math.max(wake, Date.now()));
  }

  /**
   * Delivers the observer's backlog in order, one chunk per attempt, until an attempt fails or the
   * drain's time is up (the observer then stays due, and the next alarm goes on).
   */
  private async drain(observerId: string): Promise<void> {
    const deadline = Date.now() + drainTimeMs;
    while (Date.now() < deadline) {
      const found = this.observers.target(observerId, Date.now());
      const chunk = this.ledger.head(observerId);
      if (found?.ledger.state !== "active" || !chunk) return;
      this.home.ctx.storage.transactionSync(() => this.ledger.startAttempt(chunk));
      const delivery: Delivery = {
        target: this.dressed(found.target),
        runs: this.home.runsOf(chunk.rows),
        via: chunk.via,
        lane: observerId,
        webhookId: chunk.webhookId,
        attempt: chunk.attempts + 1,
      };
      const [result] = await executeDeliveries([delivery], this.config);
      const at = Date.now();
      const outcome = this.home.ctx.storage.transactionSync(() =>
        this.ledger.recordBacklogAttempt(chunk, reportAttempt(result!, at), at),
      );
      await this.announceDisabled(outcome.disabled ? [observerId] : [], at);
      if (!outcome.next) return;
    }
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
      await sendMessages(this.home.env.INTAKE_QUEUE, encodeIntakeMessages(data));
    } catch (error) {
      console.error("observer disabled, but not announced:", error instanceof Error ? error.message : error);
    }
  }

  /** The target with its label changes. */
  private dressed(target: DeliveryTarget): DeliveryTarget {
    const labels = this.home.labelChanges?.();
    return labels === undefined ? target : { ...target, labels };
  }

  /** How long the observer's latest attempt took, if it succeeded. */
  private latestAnswerMs(observerId: string): number | undefined {
    const [latest] = this.attempts.latest(observerId, 1);
    return latest?.ok ? latest.latencyMs : undefined;
  }
}
