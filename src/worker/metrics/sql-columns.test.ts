import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ObserverStore } from "./observer-store";
import { addMissingColumns, columnNames } from "./sql-columns";

/** Runs `work` on the SQL storage of a fresh metric object, without the observer table it made. */
function withoutObserverTable<R>(metric: string, work: (sql: SqlStorage) => R): Promise<R> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) => {
    state.storage.sql.exec("DROP TABLE observer");
    return work(state.storage.sql);
  });
}

/** The observer table as the first release created it. */
const firstReleaseObserverTable = `
  CREATE TABLE observer (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    protocol TEXT NOT NULL,
    address TEXT NOT NULL,
    callback_url TEXT,
    observer_host TEXT,
    observer_port INTEGER,
    secret TEXT,
    delivered INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    lost INTEGER NOT NULL DEFAULT 0,
    last_success_at INTEGER,
    last_failure_at INTEGER,
    last_error TEXT
  );
  CREATE UNIQUE INDEX observer_target ON observer (format, protocol, address);
`;

describe("addMissingColumns", () => {
  it("adds the columns a table lacks, with their defaults for the rows it has", () =>
    withoutObserverTable("columns-added", (sql) => {
      sql.exec("CREATE TABLE legacy (id TEXT PRIMARY KEY, count INTEGER NOT NULL DEFAULT 0)");
      sql.exec("INSERT INTO legacy (id, count) VALUES ('a', 3)");

      const added = addMissingColumns(sql, "legacy", {
        count: "INTEGER NOT NULL DEFAULT 0",
        state: "TEXT NOT NULL DEFAULT 'active'",
        note: "TEXT",
      });

      expect(added).toEqual(["state", "note"]);
      expect([...columnNames(sql, "legacy")]).toEqual(["id", "count", "state", "note"]);
      expect(sql.exec("SELECT id, count, state, note FROM legacy").toArray()).toEqual([
        { id: "a", count: 3, state: "active", note: null },
      ]);
      expect(addMissingColumns(sql, "legacy", { state: "TEXT", note: "TEXT" })).toEqual([]);
    }));
});

describe("ObserverStore on an earlier release's table", () => {
  it("gains the new columns, with the lost data counted as dropped", () =>
    withoutObserverTable("columns-first-release", (sql) => {
      sql.exec(firstReleaseObserverTable);
      sql.exec(
        `INSERT INTO observer (id, format, protocol, address, callback_url, secret, delivered, failed, lost, last_error)
         VALUES ('o1', 'RDF/JSON', 'HTTP', 'http://o.example/', 'http://o.example/', 'secret-of-16-chars', 5, 2, 7, 'HTTP 500')`,
      );

      const store = new ObserverStore(sql);

      expect(store.report("o1", null)).toEqual({
        id: "o1",
        format: "RDF/JSON",
        protocol: "HTTP",
        callbackUrl: "http://o.example/",
        signed: true,
        headerNames: [],
        state: "active",
        status: {
          delivered: 5,
          failed: 2,
          dead: 0,
          dropped: 7,
          rejected: 0,
          lost: 7,
          backlog: 0,
          oldestBacklogAt: null,
          nextAttemptAt: null,
          lastSuccessAt: null,
          lastFailureAt: null,
          lastError: "HTTP 500",
        },
      });
      expect(store.target("o1", 0)?.target).toMatchObject({ secrets: ["secret-of-16-chars"], headers: {} });
    }));

  it("folds lost into dropped once, not each time the object starts", () =>
    withoutObserverTable("columns-fold-once", (sql) => {
      sql.exec(firstReleaseObserverTable);
      sql.exec(
        "INSERT INTO observer (id, format, protocol, address, callback_url, lost) VALUES ('o1', 'RDF/JSON', 'HTTP', 'a', 'http://a/', 7)",
      );
      new ObserverStore(sql).adjustBacklog("o1", { dropped: 1 });
      expect(new ObserverStore(sql).report("o1", null)?.status).toMatchObject({ dropped: 8, lost: 8 });
    }));

  it("creates a table of this release where there is none", () =>
    withoutObserverTable("columns-fresh", (sql) => {
      const store = new ObserverStore(sql);
      expect(columnNames(sql, "observer").has("lost")).toBe(false);
      expect(columnNames(sql, "observer").has("dropped")).toBe(true);
      const created = store.insert(
        { format: "GRAPHITE", protocol: "UDP", observerHost: "10.0.0.1", observerPort: 2003 },
        undefined,
      );
      expect(store.list()).toEqual([created]);
    }));
});
