/** The plan lease's table: a schema step of the metric's object. */
export const planLeaseSchema = `
  CREATE TABLE plan_lease (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), ends_at INTEGER NOT NULL);
`;

/**
 * The leases a metric's object granted on its plan (see src/worker/delivery/plan-cache.ts): while
 * one may be out, a consumer isolate delivers the metric's data by a plan it got earlier. The
 * object writes down when the latest ends, even across a restart, so that a change to the plan
 * that must reach every later datum (a new observer, a new rule reader, a new selector observer)
 * knows whether a lease may be out to revoke, and, where revoking failed, answers only once every
 * lease ended. Waits are measured on the object's clock, and never
 * exceed a lease's length: a clock set back does not hold a registration up for longer. The clock
 * is performance.now(), which in Workers reads the time since the epoch as Date.now() does, and
 * which tests that set the date leave alone.
 */
export class PlanLeases {
  constructor(
    private readonly sql: SqlStorage,
    private readonly leaseMs: () => number,
  ) {}

  /** Grants a lease from now; answers its length, or undefined when leases are off. */
  grant(): number | undefined {
    const leaseMs = this.leaseMs();
    if (leaseMs === 0) return undefined;
    this.sql.exec(
      `INSERT INTO plan_lease (singleton, ends_at) VALUES (1, ?)
       ON CONFLICT (singleton) DO UPDATE SET ends_at = MAX(ends_at, excluded.ends_at)`,
      performance.now() + leaseMs,
    );
    return leaseMs;
  }

  /** How long until every lease granted so far has ended. */
  remainingMs(): number {
    const endsAt = this.sql.exec<{ ends_at: number }>("SELECT ends_at FROM plan_lease").toArray()[0]?.ends_at;
    return endsAt === undefined ? 0 : Math.min(Math.max(endsAt - performance.now(), 0), this.leaseMs());
  }

  /** Resolves once every lease granted so far has ended. */
  async waitOut(): Promise<void> {
    await sleep(this.remainingMs());
  }
}

/** Resolves after `ms` (at once for none). */
export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
