/** The plan epoch's table: a schema step of the summary shard. */
export const planEpochSchema = `
  CREATE TABLE plan_epoch (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), epoch INTEGER NOT NULL);
`;

/**
 * A summary shard's plan epoch: a count of the changes to the plans of its metrics that must reach
 * every datum accepted after them (a metric's new observer or rule reader, a new selector
 * observer). A consumer reads it at the start of a batch and trusts a leased plan only when the
 * lease was asked for in that epoch or a later one (see src/worker/delivery/plan-cache.ts), so
 * such a change waits for no lease to end.
 */
export class PlanEpochs {
  constructor(private readonly sql: SqlStorage) {}

  current(): number {
    return this.sql.exec<{ epoch: number }>("SELECT epoch FROM plan_epoch").toArray()[0]?.epoch ?? 0;
  }

  /** Starts a new epoch: the plans leased before it are no longer trusted. */
  advance(): number {
    return this.sql
      .exec<{ epoch: number }>(
        `INSERT INTO plan_epoch (singleton, epoch) VALUES (1, 1)
         ON CONFLICT (singleton) DO UPDATE SET epoch = epoch + 1 RETURNING epoch`,
      )
      .one().epoch;
  }
}
