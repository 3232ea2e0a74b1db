/**
 * A Durable Object's schema as numbered steps: step n is `steps[n - 1]`, SQL run as one script, or
 * code, for a step that rewrites what SQL cannot (a stored format that changed). The database
 * records how many steps it has had; each step runs once, in order. A released step is never
 * changed: a change of schema is a new step at the end of the object's list.
 */
export type SchemaSteps = readonly (string | ((sql: SqlStorage) => void))[];

/**
 * Runs the steps the object's database has not had yet, in one transaction: a step that fails
 * leaves the database as it was before the first of them. Called from the object's constructor,
 * so that nothing reads the database before its schema is current.
 */
export function migrateSchema(storage: DurableObjectStorage, steps: SchemaSteps): void {
  storage.transactionSync(() => {
    const { sql } = storage;
    sql.exec(
      `CREATE TABLE IF NOT EXISTS schema_migration (
         singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
         applied INTEGER NOT NULL
       )`,
    );
    const applied = sql.exec<{ applied: number }>("SELECT applied FROM schema_migration").toArray()[0]?.applied ?? 0;
    if (applied > steps.length) {
      // Code older than the database (a rollback) would misread what the newer steps made.
      throw new Error(`The database has had ${applied} schema steps; this code knows ${steps.length}`);
    }
    if (applied === steps.length) return;
    for (const step of steps.slice(applied)) {
      if (typeof step === "string") sql.exec(step);
      else step(sql);
    }
    sql.exec(
      `INSERT INTO schema_migration (singleton, applied) VALUES (1, ?)
       ON CONFLICT (singleton) DO UPDATE SET applied = excluded.applied`,
      steps.length,
    );
  });
}
