import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrateSchema, type SchemaSteps } from "./sql-migrations";

/** Runs `work` on the storage of a metric object emptied first: a database as a new object has it. */
function withEmptyStorage<R>(name: string, work: (storage: DurableObjectStorage) => R): Promise<R> {
  return runInDurableObject(env.METRIC.getByName(`sql-migrations-${name}`), async (_, state) => {
    await state.storage.deleteAll();
    return work(state.storage);
  });
}

/** Step n creates the log (n = 1) or writes n into it, so that the log tells which steps ran, how often and in what order. */
function loggingSteps(count: number): SchemaSteps {
  return Array.from({ length: count }, (_, index) =>
    index === 0 ? "CREATE TABLE log (step INTEGER NOT NULL)" : `INSERT INTO log (step) VALUES (${index + 1})`,
  );
}

function loggedSteps(sql: SqlStorage): number[] {
  return sql
    .exec<{ step: number }>("SELECT step FROM log ORDER BY rowid")
    .toArray()
    .map((row) => row.step);
}

function appliedSteps(sql: SqlStorage): number {
  return sql.exec<{ applied: number }>("SELECT applied FROM schema_migration").one().applied;
}

describe("migrateSchema", () => {
  it("gives a new object every step, in order", () =>
    withEmptyStorage("fresh", (storage) => {
      migrateSchema(storage, loggingSteps(4));
      expect(loggedSteps(storage.sql)).toEqual([2, 3, 4]);
      expect(appliedSteps(storage.sql)).toBe(4);
    }));

  it("gives an object at step n the steps from n + 1 on, and nothing when it has them all", () =>
    withEmptyStorage("upgrade", (storage) => {
      migrateSchema(storage, loggingSteps(2));
      migrateSchema(storage, loggingSteps(5));
      migrateSchema(storage, loggingSteps(5));
      expect(loggedSteps(storage.sql)).toEqual([2, 3, 4, 5]);
      expect(appliedSteps(storage.sql)).toBe(5);
    }));

  it("runs a step of several statements as one script", () =>
    withEmptyStorage("script", (storage) => {
      migrateSchema(storage, [
        `CREATE TABLE item (id TEXT PRIMARY KEY, size INTEGER NOT NULL);
         CREATE INDEX item_by_size ON item (size);`,
      ]);
      const index = storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'item_by_size'");
      expect(index.toArray()).toHaveLength(1);
    }));

  it("runs a step of code with the database, in its place among the others", () =>
    withEmptyStorage("code", (storage) => {
      migrateSchema(storage, [
        ...loggingSteps(2),
        (sql) => {
          const logged = loggedSteps(sql);
          sql.exec("INSERT INTO log (step) VALUES (?)", 10 * logged.length + 3);
        },
        "INSERT INTO log (step) VALUES (4)",
      ]);
      expect(loggedSteps(storage.sql)).toEqual([2, 13, 4]);
      expect(appliedSteps(storage.sql)).toBe(4);
    }));

  it("leaves nothing of the new steps when one of them fails, and runs them all on the next try", () =>
    withEmptyStorage("failing", (storage) => {
      migrateSchema(storage, loggingSteps(2));
      const failing = [...loggingSteps(3), "INSERT INTO log (step) VALUES (4); INSERT INTO missing VALUES (1)"];

      expect(() => migrateSchema(storage, failing)).toThrow(/no such table: missing/);
      expect(loggedSteps(storage.sql)).toEqual([2]);
      expect(appliedSteps(storage.sql)).toBe(2);

      migrateSchema(storage, loggingSteps(4));
      expect(loggedSteps(storage.sql)).toEqual([2, 3, 4]);
      expect(appliedSteps(storage.sql)).toBe(4);
    }));

  it("refuses a database that had more steps than the code knows, and leaves it as it was", () =>
    withEmptyStorage("newer", (storage) => {
      migrateSchema(storage, loggingSteps(3));
      expect(() => migrateSchema(storage, loggingSteps(2))).toThrow(
        "The database has had 3 schema steps; this code knows 2",
      );
      expect(loggedSteps(storage.sql)).toEqual([2, 3]);
      expect(appliedSteps(storage.sql)).toBe(3);
    }));

  it("runs each step once and in order, whichever versions of the code opened the object before", () =>
    withEmptyStorage("versions", (storage) => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 6 }),
          fc.integer({ min: 1, max: 8 }),
          (opened, latest) => {
            storage.sql.exec("DROP TABLE IF EXISTS log; DROP TABLE IF EXISTS schema_migration");
            // Versions only move forward: each opened the object with at least the steps of the one before.
            for (const count of [...opened].sort((a, b) => a - b)) {
              if (count <= latest) migrateSchema(storage, loggingSteps(count));
            }
            migrateSchema(storage, loggingSteps(latest));
            expect(loggedSteps(storage.sql)).toEqual(Array.from({ length: latest - 1 }, (_, index) => index + 2));
            expect(appliedSteps(storage.sql)).toBe(latest);
          },
        ),
      );
    }));
});
