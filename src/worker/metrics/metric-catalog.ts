import { DurableObject } from "cloudflare:workers";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import type { SelectorEntry } from "../vocabulary/delivery";

/** The catalog's schema steps, numbered from 1 in this order. */
const schemaSteps: SchemaSteps = [
  `CREATE TABLE metric (name TEXT PRIMARY KEY);
   CREATE TABLE instance (id TEXT NOT NULL);
   CREATE TABLE selector_observer (
     id TEXT PRIMARY KEY,
     identity TEXT NOT NULL UNIQUE,
     entry TEXT NOT NULL
   );`,
];

/**
 * The names of all metrics, for GET /metrics. Each metric's own object tells the catalog when the
 * metric is created or deleted, so the catalog sees two calls per metric lifetime and nothing on
 * the data path. It also keeps the service's instance id.
 */
export class MetricCatalog extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrateSchema(ctx.storage, schemaSteps);
  }

  /**
   * The service's instance id, drawn at random on first need and kept from then on: it stays the
   * same across restarts, and two services with their own storage never share it.
   */
  instanceId(): string {
    const [stored] = this.sql.exec<{ id: string }>("SELECT id FROM instance").toArray();
    if (stored) return stored.id;
    const id = crypto.randomUUID();
    this.sql.exec("INSERT INTO instance (id) VALUES (?)", id);
    return id;
  }

  /**
   * Lists the metric, and answers the observers that follow selectors, which its object keeps: as
   * one step, so that an observer registered before is either answered here or told to the metric
   * by its registration (which reads the names in the same step as it lists the observer).
   */
  add(name: string): SelectorEntry[] {
    this.sql.exec("INSERT OR IGNORE INTO metric (name) VALUES (?)", name);
    return this.selectorObservers();
  }

  /** The observers that follow selectors, in registration order. */
  selectorObservers(): SelectorEntry[] {
    return this.sql
      .exec<{ entry: string }>("SELECT entry FROM selector_observer ORDER BY rowid")
      .toArray()
      .map((row) => JSON.parse(row.entry) as SelectorEntry);
  }

  /** The selector observer registered with this identity (what it follows, its format and address), if any. */
  selectorObserverOf(identity: string): string | undefined {
    return this.sql.exec<{ id: string }>("SELECT id FROM selector_observer WHERE identity = ?", identity).toArray()[0]
      ?.id;
  }

  /**
   * Lists a selector observer, unless one of the same identity is listed; answers the id listed with
   * that identity and every metric name, each of whose objects is to keep it.
   */
  addSelectorObserver(entry: SelectorEntry, identity: string): { id: string; names: string[] } {
    this.sql.exec(
      "INSERT OR IGNORE INTO selector_observer (id, identity, entry) VALUES (?, ?, ?)",
      entry.id,
      identity,
      JSON.stringify(entry),
    );
    return { id: this.selectorObserverOf(identity)!, names: this.names() };
  }

  /** Unlists a selector observer; answers every metric name, whose objects are to forget it, or null if it was not listed. */
  removeSelectorObserver(id: string): string[] | null {
    const removed = this.sql.exec("DELETE FROM selector_observer WHERE id = ?", id).rowsWritten;
    return removed > 0 ? this.names() : null;
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
