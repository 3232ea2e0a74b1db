import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PlanLeases } from "./plan-lease";

const leaseMs = 2_000;

/** Runs `work` on the plan leases of a metric object of its own. */
function withLeases<T>(metric: string, work: (leases: PlanLeases, sql: SqlStorage) => Promise<T> | T): Promise<T> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) =>
    work(new PlanLeases(state.storage.sql, () => leaseMs), state.storage.sql),
  );
}

describe("PlanLeases", () => {
  it("remembers when the latest lease ends, and never has a registration wait longer than a lease", async () => {
    const remaining = await withLeases("plan-lease.latest", (leases, sql) => {
      const before = leases.remainingMs();
      const granted = leases.grant();
      const afterGrant = leases.remainingMs();
      // A lease written by a clock far ahead (another machine's, or one set back since).
      sql.exec("UPDATE plan_lease SET ends_at = ends_at + 3600000");
      return { before, granted, afterGrant, ahead: leases.remainingMs() };
    });
    expect(remaining.before).toBe(0);
    expect(remaining.granted).toBe(leaseMs);
    expect(remaining.afterGrant).toBeGreaterThan(leaseMs - 500);
    expect(remaining.afterGrant).toBeLessThanOrEqual(leaseMs);
    expect(remaining.ahead).toBe(leaseMs);
  });

  it("waits out the latest lease, and grants none when leases are off", async () => {
    const waited = await withLeases("plan-lease.wait", async (leases, sql) => {
      leases.grant();
      sql.exec("UPDATE plan_lease SET ends_at = ?", performance.now() + 300);
      const started = performance.now();
      await leases.waitOut();
      return performance.now() - started;
    });
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(leaseMs);
    const off = await runInDurableObject(env.METRIC.getByName("plan-lease.off"), (_, state) =>
      new PlanLeases(state.storage.sql, () => 0).grant(),
    );
    expect(off).toBeUndefined();
  });
});
