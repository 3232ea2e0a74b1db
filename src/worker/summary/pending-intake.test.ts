import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recentDataKept } from "../metrics/kept-entries";
import { minuteOf } from "../metrics/recent-data";
import type { DatumRow } from "../vocabulary/datum";
import { rowsOfBlocks } from "../vocabulary/row-block";
import { type LeasedIntake, packLeasedIntakes } from "./leased-intake";
import { type DueIntake, PendingIntake, pendingIntakeAsBlocks, pendingIntakeSchema } from "./pending-intake";

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);
const leaseMs = 2_000;
const row = (id: string): DatumRow => [id, 1_000, -0, "vm1", { pairs: [["host", "vm1"]] }];
/** A row as the pending intake keeps it: without its labels, which the recent data do not show. */
const kept = (id: string): DatumRow => [id, 1_000, -0, "vm1"];
const intake = (metric: string, ids: string[], leaseEndsAt: number): LeasedIntake => ({
  metric,
  latest: ids.map(row),
  counts: [[minuteOf(t0), ids.length]],
  leaseEndsAt,
});

let shards = 0;
/** The pending intake of a shard of the test's own. */
function withPending<Result>(work: (pending: PendingIntake, sql: SqlStorage) => Result): Promise<Result> {
  return runInDurableObject(env.SUMMARY_SHARD.getByName(`pending-intake-test-${++shards}`), (_, state) =>
    work(new PendingIntake(state.storage.sql, () => leaseMs), state.storage.sql),
  );
}

describe("PendingIntake", () => {
  it("makes a metric due once a lease ended, with all it has pending in the order it came", async () => {
    const due = await withPending((pending) => {
      pending.add(packLeasedIntakes([intake("m", ["a", "b"], t0 + 500), intake("n", ["x"], t0 + 1_000)]), t0);
      pending.add(packLeasedIntakes([intake("m", ["b", "c"], t0 + 1_500)]), t0 + 100);
      return {
        next: pending.nextDueAt(),
        before: pending.due(t0 + 499, 10),
        at: pending.due(t0 + 500, 10),
        both: pending.due(t0 + 1_000, 10).map(({ metric }) => metric),
        limited: pending.due(t0 + 1_000, 1).map(({ metric }) => metric),
      };
    });
    expect(due.next).toBe(t0 + 500);
    expect(due.before).toEqual([]);
    expect(due.at).toEqual([
      { metric: "m", intake: { blocks: expect.any(Uint8Array), counts: [[minuteOf(t0), 4]] }, throughSeq: 3 },
    ]);
    // Each batch's rows as they were kept, for the metric's object to store as they are.
    const [first] = due.at as [DueIntake];
    expect(rowsOfBlocks(first.intake.blocks)).toEqual([
      [kept("a"), kept("b")],
      [kept("b"), kept("c")],
    ]);
    expect(due.both).toEqual(["m", "n"]);
    expect(due.limited).toEqual(["m"]);
  });

  it("is due a lease from its arrival at the latest, whatever the sender's clock", async () => {
    const next = await withPending((pending) => {
      pending.add(packLeasedIntakes([intake("m", ["a"], t0 + 3_600_000)]), t0);
      return pending.nextDueAt();
    });
    expect(next).toBe(t0 + leaseMs);
  });

  it("forgets what was recorded, postpones what could not be, and drops a removed metric's", async () => {
    const left = await withPending((pending) => {
      pending.add(packLeasedIntakes([intake("m", ["a"], t0), intake("n", ["b"], t0), intake("z-gone", ["c"], t0)]), t0);
      const [m, n] = pending.due(t0, 2);
      pending.add(packLeasedIntakes([intake("m", ["a2"], t0 + 20_000)]), t0);
      pending.settle(m!);
      pending.postpone(n!, t0 + 10_000);
      pending.dropMetric("z-gone");
      return { now: pending.due(t0, 10), next: pending.nextDueAt(), later: pending.due(t0 + 10_000, 10) };
    });
    expect(left.now).toEqual([]);
    // What came after a due intake was read stays pending: here, due a lease after it came.
    expect(left.next).toBe(t0 + leaseMs);
    expect(left.later.map(({ metric, intake }) => [metric, rowsOfBlocks(intake.blocks)])).toEqual([
      ["m", [[kept("a2")]]],
      ["n", [[kept("b")]]],
    ]);
    expect(await withPending((pending) => pending.nextDueAt())).toBeUndefined();
  });

  it("empties a metric's blocks that later ones hide from its object, keeping their counts", async () => {
    const batchRows = 300;
    const batches = 12;
    const ids = (batch: number) => Array.from({ length: batchRows }, (_, index) => `b${batch}-${index}`);
    const due = await withPending((pending) => {
      for (let batch = 0; batch < batches; batch++) {
        pending.add(packLeasedIntakes([intake("m", ids(batch), t0), intake("n", [`n${batch}`], t0)]), t0);
      }
      return pending.due(t0, 10);
    });
    const [m, n] = due as [DueIntake, DueIntake];
    // Never more than twice what the object keeps waits, and never less than it keeps.
    const mRows = rowsOfBlocks(m.intake.blocks).flat();
    expect(mRows.length).toBeGreaterThanOrEqual(recentDataKept);
    expect(mRows.length).toBeLessThanOrEqual(2 * recentDataKept);
    expect(mRows.map(([id]) => id)).toEqual(
      Array.from({ length: batches }, (_, batch) => ids(batch))
        .flat()
        .slice(-mRows.length),
    );
    expect(m.intake.counts).toEqual([[minuteOf(t0), batches * batchRows]]);
    expect(m.throughSeq).toBe(2 * batches - 1);
    expect(
      rowsOfBlocks(n.intake.blocks)
        .flat()
        .map(([id]) => id),
    ).toEqual(Array.from({ length: batches }, (_, batch) => `n${batch}`));
  });

  it("keeps the intake pending as JSON text before row blocks, rewritten as row blocks", async () => {
    const due = await withPending((pending, sql) => {
      sql.exec("DROP TABLE pending_block");
      sql.exec(pendingIntakeSchema);
      sql.exec(
        "INSERT INTO pending_intake (metric, latest, counts, due_at) VALUES ('m', ?, ?, ?)",
        '[["a",1000,-0,"vm1"]]',
        JSON.stringify([[minuteOf(t0), 3]]),
        t0,
      );
      pendingIntakeAsBlocks(sql);
      pending.add(packLeasedIntakes([intake("m", ["b"], t0)]), t0);
      return pending.due(t0, 10);
    });
    expect(due.map(({ metric, intake }) => [metric, rowsOfBlocks(intake.blocks), intake.counts])).toEqual([
      ["m", [[kept("a")], [kept("b")]], [[minuteOf(t0), 4]]],
    ]);
    expect(Object.is(rowsOfBlocks(due[0]!.intake.blocks)[0]![0]![2], -0)).toBe(true);
  });
});
