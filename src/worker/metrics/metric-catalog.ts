import { DurableObject } from "cloudflare:workers";

/**
 * The names of all metrics, for GET /metrics. Each metric's own object tells the catalog when the
 * metric is created or deleted, so the catalog sees two calls per metric lifetime and nothing on
 * the data path.
 */
export class MetricCatalog extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS metric (name TEXT PRIMARY KEY)");
  }

  add(name: string): void {
    this.sql.exec("INSERT OR IGNORE INTO metric (name) VALUES (?)", name);
  }

  remove(name: string): void {
    this.sql.exec("DELETE FROM metric WHERE name = ?", name);
  }

  /** Every metric name, in code point order. */
  names(): string[] {
    return this.sql
      .exec<{ name: string }>("SELECT name FROM metric ORDER BY name")
      .toArray()
      .map((row) => row.name);
  }
}

/** The one catalog instance. */
export function metricCatalogStub(env: Env): DurableObjectStub<MetricCatalog> {
  return env.METRIC_CATALOG.get(env.METRIC_CATALOG.idFromName("metric-catalog"));
}
