import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AttemptReport } from "../vocabulary/delivery";
import { AttemptLog } from "./attempt-log";
import { attemptsKept } from "./kept-entries";

/** Runs `work` on the attempt log of a fresh metric object, with its SQL storage. */
function withLog<R>(metric: string, work: (log: AttemptLog, sql: SqlStorage) => R): Promise<R> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) =>
    work(new AttemptLog(state.storage.sql), state.storage.sql),
  );
}

const t0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function report(observerId: string, attempt: number, changes: Partial<AttemptReport> = {}): AttemptReport {
  return {
    observerId,
    ok: true,
    latencyMs: 12,
    data: 3,
    webhookId: `msg_${attempt}`,
    attempt,
    at: t0 + attempt,
    ...changes,
  };
}

describe("AttemptLog", () => {
  it("shows each observer's attempts newest first, with status and error only when there are some", () =>
    withLog("log-fields", (log) => {
      log.add(report("o1", 1, { ok: false, httpStatus: 503, error: "HTTP 503 from the observer", latencyMs: 20.6 }), 1);
      log.add(report("o2", 1), 1);
      log.add(report("o1", 2, { httpStatus: 204 }), 2);

      expect(log.latest("o1", 50)).toEqual([
        {
          at: "2026-01-02T03:04:05.002Z",
          attempt: 2,
          ok: true,
          httpStatus: 204,
          latencyMs: 12,
          data: 3,
          webhookId: "msg_2",
        },
        {
          at: "2026-01-02T03:04:05.001Z",
          attempt: 1,
          ok: false,
          httpStatus: 503,
          error: "HTTP 503 from the observer",
          latencyMs: 21,
          data: 3,
          webhookId: "msg_1",
        },
      ]);
      expect(log.latest("o2", 50)).toEqual([
        { at: "2026-01-02T03:04:05.001Z", attempt: 1, ok: true, latencyMs: 12, data: 3, webhookId: "msg_1" },
      ]);
      expect(log.latest("o3", 50)).toEqual([]);
    }));

  it("keeps the last 1,000 attempts of an observer in a ring of 1,000 rows", () =>
    withLog("log-ring", (log, sql) => {
      expect(attemptsKept).toBe(1_000);
      for (let sequence = 1; sequence <= 1_005; sequence++) log.add(report("o1", sequence), sequence);

      const kept = log.latest("o1", 1_000);
      expect(kept).toHaveLength(1_000);
      expect(kept[0]).toMatchObject({ attempt: 1_005, webhookId: "msg_1005" });
      expect(kept[999]).toMatchObject({ attempt: 6, webhookId: "msg_6" });
      expect(kept.map((entry) => entry.attempt)).toEqual(Array.from({ length: 1_000 }, (_, index) => 1_005 - index));
      expect(log.latest("o1", 1_001)).toHaveLength(1_000);
      const rows = sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM attempt WHERE observer_id = 'o1'").one();
      expect(rows.count).toBe(1_000);
    }));

  it("gives at most `limit` attempts, the newest", () =>
    withLog("log-limit", (log) => {
      for (let sequence = 1; sequence <= 5; sequence++) log.add(report("o1", sequence), sequence);
      expect(log.latest("o1", 3).map((entry) => entry.attempt)).toEqual([5, 4, 3]);
      expect(log.latest("o1", 1).map((entry) => entry.attempt)).toEqual([5]);
    }));

  it("forgets one observer's attempts, or all of them", () =>
    withLog("log-remove", (log) => {
      for (const observer of ["o1", "o2", "o3"]) log.add(report(observer, 1), 1);
      log.removeObserver("o1");
      expect(log.latest("o1", 50)).toEqual([]);
      expect(log.latest("o2", 50)).toHaveLength(1);
      log.clear();
      expect([log.latest("o2", 50), log.latest("o3", 50)]).toEqual([[], []]);
    }));
});
