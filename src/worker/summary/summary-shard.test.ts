import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { replaceMetricObject } from "../../../test/api/support/metric-objects";
import { metricStub } from "../metrics/metric-object";
import { minuteOf } from "../metrics/recent-data";
import { type LeasedIntake, packLeasedIntakes } from "./leased-intake";
import { PendingIntake } from "./pending-intake";
import { figures, snapshot } from "./summary-fixtures";
import type { SummaryShard } from "./summary-shard";

/** A shard of the test's own. */
let shards = 0;
const freshShard = () => env.SUMMARY_SHARD.getByName(`summary-shard-test-${++shards}`);

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);

describe("SummaryShard", () => {
  it("advances its plan epoch, one step a revocation, and keeps it on disk", async () => {
    const shard = freshShard();
    expect(await shard.planEpoch()).toBe(0);
    expect(await shard.revokeLeasedPlans()).toBe(1);
    expect(await shard.revokeLeasedPlans()).toBe(2);
    const stored = await runInDurableObject(shard, (_, state) =>
      state.storage.sql.exec<{ epoch: number }>("SELECT epoch FROM plan_epoch").one(),
    );
    expect(stored.epoch).toBe(2);
    expect(await shard.planEpoch()).toBe(2);
  });

  it("keeps the latest version of a metric and of an observer, whatever the order they arrive in", async () => {
    const shard = freshShard();
    await shard.apply({
      metrics: [figures("cpu", t0 + 2, { dataAccepted: 2 })],
      observers: [snapshot("o", t0 + 2, { metric: "cpu", status: { delivered: 2 } })],
    });
    await shard.apply({
      metrics: [figures("cpu", t0 + 1, { dataAccepted: 1 })],
      observers: [snapshot("o", t0 + 1, { metric: "cpu", status: { delivered: 1 } })],
    });
    const content = await shard.read();
    expect(content.metrics).toEqual([figures("cpu", t0 + 2, { dataAccepted: 2 })]);
    expect(content.observers).toEqual([
      { ...snapshot("o", t0 + 2, { metric: "cpu", status: { delivered: 2 } }), removed: false, listedAt: t0 + 2 },
    ]);
  });

  it("removes a metric with its observers; a version older than the removal does not bring them back", async () => {
    const shard = freshShard();
    await shard.apply({
      metricStates: [{ figures: figures("gone", t0), observers: [snapshot("o", t0, { metric: "gone" })] }],
    });
    await shard.apply({ removedMetrics: [{ key: "gone", at: t0 + 10 }] });
    await shard.apply({ metrics: [figures("gone", t0 + 5)], observers: [snapshot("o", t0 + 5, { metric: "gone" })] });
    expect(await shard.read()).toEqual({ metrics: [], observers: [] });
    // Data of the metric accepted later create it again, without its observers.
    await shard.apply({ metrics: [figures("gone", t0 + 20)] });
    expect(await shard.read()).toEqual({ metrics: [figures("gone", t0 + 20)], observers: [] });
  });

  it("takes a metric's state as all of its observers: one it lacks is gone", async () => {
    const shard = freshShard();
    const kept = snapshot("kept", t0, { metric: "m" });
    await shard.apply({
      metricStates: [{ figures: figures("m", t0), observers: [kept, snapshot("dropped", t0, { metric: "m" })] }],
    });
    const later = snapshot("kept", t0 + 1, { metric: "m" });
    await shard.apply({ metricStates: [{ figures: figures("m", t0 + 1), observers: [later] }] });
    expect((await shard.read()).observers.map((observer) => observer.id)).toEqual(["kept"]);
  });

  it("answers a selector observer's removal, so that a copy of it in another shard is known to be gone", async () => {
    const shard = freshShard();
    await shard.apply({ observers: [snapshot("sel", t0, { match: ["x"] })] });
    await shard.apply({ removedObservers: [{ key: "sel", at: t0 + 1 }] });
    expect((await shard.read()).observers).toEqual([expect.objectContaining({ id: "sel", at: t0 + 1, removed: true })]);
  });

  it("forgets removals a day old", async () => {
    const shard = freshShard();
    await shard.apply({ removedObservers: [{ key: "old", at: Date.now() - 25 * 3_600_000 }] });
    expect((await shard.read()).observers).toEqual([]);
  });
});

describe("SummaryShard's leased intake", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A batch's data of `metric`, ids `ids`, delivered by a plan leased until `leaseEndsAt` (performance.now()). */
  const intake = (metric: string, ids: string[], leaseEndsAt: number): LeasedIntake => ({
    metric,
    latest: ids.map((id, index) => [id, 1_000 * (index + 1), index, "vm1"]),
    counts: [[minuteOf(Date.now()), ids.length]],
    leaseEndsAt,
  });
  const accepted = async (metric: string) => (await metricStub(env, metric).describeMetric())?.dataAccepted;
  const recentIds = async (metric: string) => (await metricStub(env, metric).recentData(10))?.map(([id]) => id);
  const pendingOf = (shard: DurableObjectStub<SummaryShard>) =>
    runInDurableObject(shard, (_, state) => new PendingIntake(state.storage.sql, () => 2_000).nextDueAt());

  it("tells a metric's object what was consumed under a lease once it ended, and shows the figures it answers", async () => {
    const shard = freshShard();
    const [metric, later] = ["shard-intake.cpu", "shard-intake.mem"];
    const now = performance.now();
    await shard.apply({
      leasedIntakes: packLeasedIntakes([intake(metric, ["a", "b"], now + 200), intake(later, ["x"], now + 60_000)]),
    });
    await shard.apply({ leasedIntakes: packLeasedIntakes([intake(metric, ["b", "c"], now + 200)]) });

    await expect.poll(() => accepted(metric), { timeout: 5_000, interval: 50 }).toBe(4);
    expect(await recentIds(metric)).toEqual(["c", "b", "a"]);
    expect((await shard.read()).metrics).toEqual([
      expect.objectContaining({ name: metric, dataAccepted: 4, latestDatumAt: 2_000 }),
    ]);
    // Its lease has not ended: at the latest a lease after it came.
    expect(await accepted(later)).toBeUndefined();
    await expect.poll(() => accepted(later), { timeout: 5_000, interval: 50 }).toBe(1);
    expect(await pendingOf(shard)).toBeUndefined();
  });

  it("does not tell a metric twice when its alarm runs again, and tells again one whose object failed", async () => {
    const shard = freshShard();
    const [told, failing] = ["shard-retry.told", "shard-retry.failing"];
    replaceMetricObject(failing, { recordIntake: () => Promise.reject(new Error("object unavailable")) });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await shard.apply({
      leasedIntakes: packLeasedIntakes([
        intake(told, ["a"], performance.now()),
        intake(failing, ["b"], performance.now()),
      ]),
    });
    await expect.poll(() => accepted(told), { timeout: 5_000, interval: 50 }).toBe(1);

    await runInDurableObject(shard, (instance) => instance.alarm());
    vi.restoreAllMocks();
    expect(await accepted(told)).toBe(1);
    expect(await accepted(failing)).toBeUndefined();

    // Past the wait after a failure (which the clock the shard reads, performance.now(), tells).
    const afterRetryWait = performance.now() + 60_000;
    vi.spyOn(performance, "now").mockReturnValue(afterRetryWait);
    await runInDurableObject(shard, (instance) => instance.alarm());
    vi.restoreAllMocks();
    expect(await accepted(failing)).toBe(1);
    expect(await accepted(told)).toBe(1);
    expect(await pendingOf(shard)).toBeUndefined();
  });

  it("forgets a removed metric's pending intake", async () => {
    const shard = freshShard();
    const metric = "shard-intake.removed";
    await shard.apply({ leasedIntakes: packLeasedIntakes([intake(metric, ["a"], performance.now() + 60_000)]) });
    expect(await pendingOf(shard)).toBeDefined();
    await shard.apply({ removedMetrics: [{ key: metric, at: Date.now() }] });
    expect(await pendingOf(shard)).toBeUndefined();
  });
});
