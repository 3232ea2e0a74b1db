import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatumRow } from "../vocabulary/datum";
import type { AttemptReport, BatchReport, DeliveryStatus } from "../vocabulary/delivery";
import { rowsJson } from "../vocabulary/row-json";
import { AttemptLog } from "./attempt-log";
import { BacklogStore } from "./backlog-store";
import { DeliveryLedger, type LedgerPolicy } from "./delivery-ledger";
import { ObserverStore } from "./observer-store";

/** Retries after 1, 2 and 4 seconds: data are tried for 7 seconds. */
const policy: LedgerPolicy = {
  RETRY_SCHEDULE: [1, 2, 4],
  MAX_BACKLOG_DATA: 100,
  DISABLE_AFTER_HOURS: 1,
  DEAD_RETENTION_HOURS: 2,
};
const hour = 3_600_000;
const t0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const iso = (epochMs: number) => new Date(epochMs).toISOString();

interface Books {
  ledger: DeliveryLedger;
  observers: ObserverStore;
  backlog: BacklogStore;
  attempts: AttemptLog;
  /** An HTTP observer registered for the test. */
  id: string;
  status(): DeliveryStatus;
}

/**
 * Runs `work` on the delivery books of a metric object of the test's own, with one observer,
 * under `policy` and `changes`.
 */
function withLedger<R>(work: (books: Books) => R, changes: Partial<LedgerPolicy> = {}): Promise<R> {
  const metric = expect.getState().currentTestName!;
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) => {
    const { sql } = state.storage;
    const observers = new ObserverStore(sql);
    const backlog = new BacklogStore(sql, rowsJson);
    const attempts = new AttemptLog(sql);
    const ledger = new DeliveryLedger(observers, backlog, attempts, { ...policy, ...changes });
    const { id } = observers.insert(
      { format: "TOWER/JSON", protocol: "HTTP", callbackUrl: "http://o.example/" },
      undefined,
    );
    const status = () => observers.report(id, ledger.oldestPendingAcceptedAt(id))!.status;
    return work({ ledger, observers, backlog, attempts, id, status });
  });
}

const rows = (prefix: string, count: number): DatumRow[] =>
  Array.from({ length: count }, (_, index) => [`${prefix}${index + 1}`, index, index, "vm1"]);

function failed(observerId: string, at: number, changes: Partial<AttemptReport> = {}): AttemptReport {
  const report = { observerId, ok: false, httpStatus: 503, error: "HTTP 503 from the observer", latencyMs: 5 };
  return { ...report, data: 3, webhookId: "msg_1", attempt: 1, at, ...changes };
}

function succeeded(observerId: string, at: number, changes: Partial<AttemptReport> = {}): AttemptReport {
  return {
    observerId,
    ok: true,
    httpStatus: 204,
    latencyMs: 5,
    data: 3,
    webhookId: "msg_1",
    attempt: 1,
    at,
    ...changes,
  };
}

/** A batch whose payload of three data failed for the observer at `at`. */
const failedBatch = (observerId: string, at: number, changes: Partial<AttemptReport> = {}): BatchReport => ({
  attempts: [failed(observerId, at, changes)],
  owed: [{ rows: rows("a", 3), observers: [{ id: observerId, webhookId: "msg_1", attempts: 1 }] }],
});

/** Data the observer was held from: no attempt, and no webhook id yet. */
const heldBatch = (observerId: string, owedRows: DatumRow[]): BatchReport => ({
  attempts: [],
  owed: [{ rows: owedRows, observers: [{ id: observerId, attempts: 0 }] }],
});

/** An attempt at the observer's backlog head, started as the drain starts one, that ends as `changes` say (failed unless told otherwise). */
function tryHead({ ledger, id }: Books, at: number, changes: Partial<AttemptReport> = {}) {
  const head = ledger.head(id)!;
  ledger.startAttempt(head);
  const report = failed(id, at, { webhookId: head.webhookId, attempt: head.attempts + 1, data: head.data, ...changes });
  return ledger.recordBacklogAttempt(head, report, at);
}

/** Fails the batch at t0, then the backlog at t0 + 1 s, + 3 s and + 7 s: the whole schedule. */
function failForTheWholeSchedule(books: Books): void {
  books.ledger.recordBatch(failedBatch(books.id, t0), t0);
  for (const at of [t0 + 1_000, t0 + 3_000, t0 + 7_000]) tryHead(books, at);
}

describe("DeliveryLedger", () => {
  beforeEach(() => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("counts delivered data and logs the attempt, owing nothing", () =>
    withLedger(({ ledger, attempts, id, status }) => {
      expect(ledger.recordBatch({ attempts: [succeeded(id, t0)], owed: [] }, t0)).toEqual([]);
      expect(status()).toMatchObject({
        delivered: 3,
        failed: 0,
        backlog: 0,
        lastSuccessAt: iso(t0),
        nextAttemptAt: null,
      });
      expect(attempts.latest(id, 50)).toEqual([
        { at: iso(t0), attempt: 1, ok: true, httpStatus: 204, latencyMs: 5, data: 3, webhookId: "msg_1" },
      ]);
      expect(ledger.due(t0 + hour)).toEqual([]);
      expect(ledger.nextWake()).toBeNull();
    }));

  it("owes failed data to the backlog with their webhook id, and schedules the next attempt after the first step", () =>
    withLedger(({ ledger, id, status }) => {
      expect(ledger.recordBatch(failedBatch(id, t0), t0)).toEqual([]);
      expect(status()).toEqual({
        acknowledgement: "acknowledged",
        delivered: 0,
        failed: 1,
        dead: 0,
        dropped: 0,
        rejected: 0,
        lost: 0,
        backlog: 3,
        oldestBacklogAt: iso(t0),
        nextAttemptAt: iso(t0 + 1_000),
        lastSuccessAt: null,
        lastFailureAt: iso(t0),
        lastError: "HTTP 503 from the observer",
      });
      expect(ledger.head(id)).toMatchObject({ webhookId: "msg_1", attempts: 1, data: 3, rows: rows("a", 3) });
      expect(ledger.due(t0 + 999)).toEqual([]);
      expect(ledger.due(t0 + 1_000)).toEqual([id]);
      expect(ledger.nextWake()).toBe(t0 + 1_000);
    }));

  it("waits each step of the schedule in turn after failed attempts at the backlog", () =>
    withLedger((books) => {
      const { ledger, attempts, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      expect(tryHead(books, t0 + 1_000)).toEqual({ next: false, disabled: false });
      expect(status().nextAttemptAt).toBe(iso(t0 + 3_000));
      tryHead(books, t0 + 3_000);
      expect(status().nextAttemptAt).toBe(iso(t0 + 7_000));
      expect(ledger.head(id)).toMatchObject({ webhookId: "msg_1", attempts: 3 });
      expect(attempts.latest(id, 50).map((entry) => [entry.attempt, entry.webhookId])).toEqual([
        [3, "msg_1"],
        [2, "msg_1"],
        [1, "msg_1"],
      ]);
    }));

  it("waits as long as Retry-After asks, up to the largest step", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0, { httpStatus: 429, retryAfterSeconds: 3 }), t0);
      expect(status().nextAttemptAt).toBe(iso(t0 + 3_000));
      tryHead(books, t0 + 3_000, { httpStatus: 503, retryAfterSeconds: 60 });
      expect(status().nextAttemptAt).toBe(iso(t0 + 7_000));
    }));

  it("makes dead the data tried for the whole schedule", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      tryHead(books, t0 + 1_000);
      tryHead(books, t0 + 3_000);
      expect(status()).toMatchObject({ backlog: 3, dead: 0 });

      expect(tryHead(books, t0 + 7_000)).toEqual({ next: false, disabled: false });
      expect(status()).toMatchObject({
        failed: 4,
        backlog: 0,
        dead: 3,
        dropped: 0,
        lost: 3,
        oldestBacklogAt: null,
        nextAttemptAt: null,
      });
      expect(ledger.head(id)).toBeUndefined();
      expect(ledger.nextWake()).toBe(t0 + 7_000 + 2 * hour);
    }));

  it("puts data owed while a backlog waits behind it, without moving its next attempt", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      ledger.recordBatch(heldBatch(id, rows("b", 2)), t0 + 500);
      expect(status()).toMatchObject({ backlog: 5, oldestBacklogAt: iso(t0), nextAttemptAt: iso(t0 + 1_000) });

      expect(tryHead(books, t0 + 1_000, { ok: true, httpStatus: 204, error: undefined })).toEqual({
        next: true,
        disabled: false,
      });
      expect(ledger.head(id)).toMatchObject({
        webhookId: expect.stringMatching(/^msg_[0-9a-f-]{36}$/),
        attempts: 0,
        rows: rows("b", 2),
        acceptedAt: t0 + 500,
      });
      expect(status()).toMatchObject({
        delivered: 3,
        backlog: 2,
        oldestBacklogAt: iso(t0 + 500),
        nextAttemptAt: iso(t0 + 1_000),
      });
      expect(ledger.due(t0 + 1_000)).toEqual([id]);
    }));

  it("joins data held behind the backlog into its last chunk never sent, which keeps its first acceptance", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      ledger.recordBatch(heldBatch(id, rows("b", 2)), t0 + 500);
      ledger.recordBatch(heldBatch(id, rows("c", 3)), t0 + 600);
      expect(status()).toMatchObject({ backlog: 8, oldestBacklogAt: iso(t0) });

      expect(tryHead(books, t0 + 1_000, { ok: true, httpStatus: 204, error: undefined })).toEqual({
        next: true,
        disabled: false,
      });
      const joined = ledger.head(id)!;
      expect(joined).toMatchObject({
        rows: [...rows("b", 2), ...rows("c", 3)],
        data: 5,
        acceptedAt: t0 + 500,
        attempts: 0,
      });
      expect(status()).toMatchObject({ delivered: 3, backlog: 5, oldestBacklogAt: iso(t0 + 500) });

      tryHead(books, t0 + 1_000);
      ledger.recordBatch(heldBatch(id, rows("d", 1)), t0 + 1_100);
      expect(ledger.head(id)).toEqual({ ...joined, attempts: 1 });
      expect(status()).toMatchObject({ backlog: 6, oldestBacklogAt: iso(t0 + 500) });
    }));

  it("tries at once the data of a delivery the batch could not finish, without counting a failure", () =>
    withLedger(({ ledger, attempts, id, status }) => {
      const error = "not answered within the batch's budget; continued from the backlog";
      const batch = failedBatch(id, t0, { deferred: true, error, httpStatus: undefined });
      expect(ledger.recordBatch(batch, t0)).toEqual([]);
      expect(status()).toMatchObject({ failed: 0, backlog: 3, nextAttemptAt: iso(t0), lastError: null });
      expect(attempts.latest(id, 50)).toEqual([
        { at: iso(t0), attempt: 1, ok: false, error, latencyMs: 5, data: 3, webhookId: "msg_1" },
      ]);
      expect(ledger.due(t0)).toEqual([id]);
    }));

  it("holds the data of a paused observer in its backlog without scheduling an attempt", () =>
    withLedger(({ ledger, observers, id, status }) => {
      observers.change(id, { state: "paused" });
      ledger.recordBatch(heldBatch(id, rows("p", 4)), t0);
      expect(status()).toMatchObject({ backlog: 4, oldestBacklogAt: iso(t0), nextAttemptAt: null, failed: 0 });
      expect(ledger.head(id)).toMatchObject({ attempts: 0, data: 4, webhookId: expect.stringMatching(/^msg_/) });
      expect(ledger.due(t0 + hour)).toEqual([]);
      expect(ledger.nextWake()).toBeNull();
    }));

  it("tries the data of a resumed observer for a whole schedule again, however long they were held", () =>
    withLedger((books) => {
      const { ledger, observers, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      observers.change(id, { state: "paused" });
      ledger.recordBatch(heldBatch(id, rows("b", 2)), t0 + 1_000);

      const resumed = t0 + hour;
      ledger.resume(id, resumed);
      expect(status()).toMatchObject({ backlog: 5, nextAttemptAt: iso(resumed) });
      expect(tryHead(books, resumed)).toEqual({ next: false, disabled: false });
      expect(status()).toMatchObject({ backlog: 5, dead: 0, nextAttemptAt: iso(resumed + 1_000) });

      tryHead(books, resumed + 1_000);
      tryHead(books, resumed + 3_000);
      expect(status()).toMatchObject({ backlog: 5, dead: 0 });
      tryHead(books, resumed + 7_000);
      expect(status()).toMatchObject({ backlog: 0, dead: 5 });
    }));

  it("keeps a backlog within its cap by dropping the oldest data, cutting a chunk when only part of it must go", () =>
    withLedger(
      ({ ledger, id, status }) => {
        ledger.recordBatch(failedBatch(id, t0), t0);
        const first = ledger.head(id)!;
        ledger.recordBatch(heldBatch(id, rows("b", 4)), t0 + 1);
        expect(status()).toMatchObject({ backlog: 5, dropped: 2, lost: 2 });
        expect(ledger.head(id)).toEqual({ ...first, rows: [["a3", 2, 2, "vm1"]], data: 1 });

        // c1…c3 join b1…b4, which were never sent; the cap then cuts that chunk.
        ledger.recordBatch(heldBatch(id, rows("c", 3)), t0 + 2);
        expect(status()).toMatchObject({ backlog: 5, dropped: 5, oldestBacklogAt: iso(t0 + 1) });
        expect(ledger.head(id)).toMatchObject({
          rows: [...rows("b", 4).slice(2), ...rows("c", 3)],
          acceptedAt: t0 + 1,
        });
      },
      { MAX_BACKLOG_DATA: 5 },
    ));

  it("counts dead data within the cap, and drops them first when they are the oldest", () =>
    withLedger(
      (books) => {
        failForTheWholeSchedule(books);
        books.ledger.recordBatch(heldBatch(books.id, rows("b", 4)), t0 + 8_000);
        expect(books.status()).toMatchObject({ backlog: 4, dead: 1, dropped: 2, lost: 3 });
      },
      { MAX_BACKLOG_DATA: 5 },
    ));

  it("counts a backlog correctly when its head was cut by the cap while it was being delivered", () =>
    withLedger(
      ({ ledger, id, status }) => {
        ledger.recordBatch(heldBatch(id, rows("a", 3)), t0);
        const inFlight = ledger.head(id)!;
        ledger.startAttempt(inFlight);
        // Held while the attempt is on its way: b1…b4 do not join the chunk being delivered.
        ledger.recordBatch(heldBatch(id, rows("b", 4)), t0 + 1);
        expect(status()).toMatchObject({ backlog: 5, dropped: 2 });
        const report = succeeded(id, t0 + 2, { webhookId: inFlight.webhookId, data: 3 });
        expect(ledger.recordBacklogAttempt(inFlight, report, t0 + 2)).toEqual({ next: true, disabled: false });
        // a1 and a2, cut by the cap while on their way, arrived after all: delivered, not dropped.
        expect(status()).toMatchObject({ delivered: 3, backlog: 4, dropped: 0, oldestBacklogAt: iso(t0 + 1) });
        const held = ledger.head(id)!;
        expect(held).toMatchObject({ rows: rows("b", 4), data: 4, acceptedAt: t0 + 1, attempts: 0 });
        expect(held.webhookId).not.toBe(inFlight.webhookId);
      },
      { MAX_BACKLOG_DATA: 5 },
    ));

  it("replays dead data as pending, with the same webhook id, tried at once", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      failForTheWholeSchedule(books);
      const now = t0 + hour;
      expect(ledger.replay(id, t0 + 1, now, now)).toBe(0);
      expect(status()).toMatchObject({ dead: 3, backlog: 0 });

      expect(ledger.replay(id, t0, t0, now)).toBe(3);
      expect(status()).toMatchObject({ dead: 0, backlog: 3, lost: 0, nextAttemptAt: iso(now) });
      expect(ledger.head(id)).toMatchObject({ webhookId: "msg_1", attempts: 0, data: 3 });
      expect(ledger.due(now)).toEqual([id]);
    }));

  it("drops dead data once their retention has ended, counting them", () =>
    withLedger((books) => {
      const { ledger, status } = books;
      failForTheWholeSchedule(books);
      const retentionEnds = t0 + 7_000 + 2 * hour;
      ledger.sweep(retentionEnds - 1);
      expect(status()).toMatchObject({ dead: 3, dropped: 0 });
      ledger.sweep(retentionEnds);
      expect(status()).toMatchObject({ dead: 0, dropped: 3, lost: 3 });
      expect(ledger.nextWake()).toBeNull();
    }));

  it("disables an observer that has failed for DISABLE_AFTER_HOURS without a success", () =>
    withLedger((books) => {
      const { ledger, observers, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      expect(tryHead(books, t0 + hour - 1)).toEqual({ next: false, disabled: false });
      ledger.recordBatch(heldBatch(id, rows("b", 1)), t0 + hour - 1);
      expect(tryHead(books, t0 + hour)).toEqual({ next: false, disabled: true });
      expect(observers.report(id, null)?.state).toBe("disabled");
      expect(status()).toMatchObject({ backlog: 1, nextAttemptAt: null });
      expect(ledger.due(t0 + 2 * hour)).toEqual([]);
    }));

  it("disables an observer whose batch delivery fails past DISABLE_AFTER_HOURS, once", () =>
    withLedger(({ ledger, id }) => {
      ledger.recordBatch(failedBatch(id, t0), t0);
      expect(ledger.recordBatch(failedBatch(id, t0 + hour), t0 + hour)).toEqual([id]);
      expect(ledger.recordBatch(failedBatch(id, t0 + 2 * hour), t0 + 2 * hour)).toEqual([]);
    }));

  it("starts the outage clock again after a success", () =>
    withLedger(({ ledger, id }) => {
      ledger.recordBatch(failedBatch(id, t0), t0);
      ledger.recordBatch({ attempts: [succeeded(id, t0 + hour / 2)], owed: [] }, t0 + hour / 2);
      expect(ledger.recordBatch(failedBatch(id, t0 + hour), t0 + hour)).toEqual([]);
    }));

  it("makes a waiting backlog due now on retry now, keeping the schedule's step", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      tryHead(books, t0 + 1_000);
      expect(status().nextAttemptAt).toBe(iso(t0 + 3_000));

      ledger.retryNow(id, t0 + 1_500);
      expect(status()).toMatchObject({ backlog: 3, nextAttemptAt: iso(t0 + 1_500) });
      expect(ledger.due(t0 + 1_500)).toEqual([id]);
      expect(ledger.nextWake()).toBe(t0 + 1_500);
      // A failure of the retry waits the schedule's next step, as the failure before it would have led to.
      tryHead(books, t0 + 1_500);
      expect(status().nextAttemptAt).toBe(iso(t0 + 5_500));
    }));

  it("brings a waiting backlog's attempt forward when a delivery to its observer succeeds", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      tryHead(books, t0 + 1_000);
      expect(status().nextAttemptAt).toBe(iso(t0 + 3_000));

      const delivered = { attempts: [succeeded(id, t0 + 1_200)], owed: [] };
      ledger.recordBatch(delivered, t0 + 1_200);
      expect(ledger.bringForward(delivered, t0 + 1_200)).toBe(true);
      expect(status()).toMatchObject({ backlog: 3, nextAttemptAt: iso(t0 + 1_200) });
      expect(ledger.due(t0 + 1_200)).toEqual([id]);
      expect(ledger.bringForward(delivered, t0 + 1_300)).toBe(false);
    }));

  it("brings nothing forward for an observer without a backlog, or one that also failed in the batch", () =>
    withLedger((books) => {
      const { ledger, id, status } = books;
      const delivered = { attempts: [succeeded(id, t0)], owed: [] };
      ledger.recordBatch(delivered, t0);
      expect(ledger.bringForward(delivered, t0)).toBe(false);

      ledger.recordBatch(failedBatch(id, t0 + 100), t0 + 100);
      const mixed = { attempts: [succeeded(id, t0 + 200), failed(id, t0 + 200)], owed: [] };
      ledger.recordBatch(mixed, t0 + 200);
      expect(ledger.bringForward(mixed, t0 + 200)).toBe(false);
      expect(status().nextAttemptAt).not.toBe(iso(t0 + 200));
    }));

  it("brings nothing forward for a paused observer", () =>
    withLedger(({ ledger, observers, id, status }) => {
      ledger.recordBatch(failedBatch(id, t0), t0);
      observers.change(id, { state: "paused" });
      const delivered = { attempts: [succeeded(id, t0 + 100)], owed: [] };
      ledger.recordBatch(delivered, t0 + 100);
      expect(ledger.bringForward(delivered, t0 + 100)).toBe(false);
      expect(status().nextAttemptAt).toBeNull();
    }));

  it("removes an observer that answers 410 Gone, with its backlog and attempts", () =>
    withLedger((books) => {
      const { ledger, observers, attempts, id } = books;
      ledger.recordBatch(failedBatch(id, t0), t0);
      expect(tryHead(books, t0 + 1_000, { gone: true, httpStatus: 410 })).toEqual({ next: false, disabled: false });
      expect(observers.report(id, null)).toBeUndefined();
      expect(ledger.head(id)).toBeUndefined();
      expect(attempts.latest(id, 50)).toEqual([]);
    }));

  it("ignores attempts and data of observers that no longer exist", () =>
    withLedger(({ ledger, id, status }) => {
      const report = failedBatch("removed-meanwhile", t0);
      expect(ledger.recordBatch({ ...report, attempts: [...report.attempts, succeeded(id, t0)] }, t0)).toEqual([]);
      expect(ledger.head("removed-meanwhile")).toBeUndefined();
      expect(status()).toMatchObject({ delivered: 3, backlog: 0 });
    }));
});
