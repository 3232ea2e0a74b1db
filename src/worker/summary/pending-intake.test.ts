import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minuteOf } from "../metrics/recent-data";
import type { DatumRow } from "../vocabulary/datum";
import { type LeasedIntake, packLeasedIntakes } from "./leased-intake";
import { type DueIntake, PendingIntake } from "./pending-intake";

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
function withPending<Result>(work: (pending: PendingIntake) => Result): Promise<Result> {
  return runInDurableObject(env.SUMMARY_SHARD.getByName(`pending-intake-test-${++shards}`), (_, state) =>
    work(new PendingIntake(state.storage.sql, () => leaseMs)),
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
      { metric: "m", intake: { blocks: expect.any(Array), counts: [[minuteOf(t0), 4]] }, seqs: [1, 3] },
    ]);
    // Each batch's rows as they were kept, for the metric's object to store as they are.
    const [first] = due.at as [DueIntake];
    expect(first.intake.blocks.map(({ json, rows }) => [JSON.parse(json), rows])).toEqual([
      [[kept("a"), kept("b")], 2],
      [[kept("b"), kept("c")], 2],
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
      pending.settle(m!.seqs);
      pending.postpone(n!.seqs, t0 + 10_000);
      pending.dropMetric("z-gone");
      return { now: pending.due(t0, 10), next: pending.nextDueAt(), later: pending.due(t0 + 10_000, 10) };
    });
    expect(left.now).toEqual([]);
    expect(left.next).toBe(t0 + 10_000);
    expect(left.later.map(({ metric, intake }) => [metric, intake.blocks.map(({ json }) => JSON.parse(json))])).toEqual(
      [["n", [[kept("b")]]]],
    );
    expect(await withPending((pending) => pending.nextDueAt())).toBeUndefined();
  });
});
