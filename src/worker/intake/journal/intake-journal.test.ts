import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IntakeJournal } from "./intake-journal";
import { recordIntakeQueue } from "./testing/recorded-queue";

/** A shard of its own for each test. */
const shardNamed = (name: string) => env.INTAKE_JOURNAL_SHARD.getByName(`journal-test-${name}`);

/** An entry whose body is its id's bytes: the journal keeps bodies as they are. */
const entry = (id: string) => ({ id, body: new TextEncoder().encode(id) });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("IntakeJournal", () => {
  it("keeps written entries until they are cleared, ignoring ids it does not hold", async () => {
    const shard = shardNamed("clear");
    await shard.write([entry("a/0"), entry("a/1")]);
    await shard.write([entry("b/0")]);
    expect(await shard.size()).toBe(3);
    await shard.clear(["a/1", "unknown/0"]);
    expect(await shard.size()).toBe(2);
    await shard.clear(["a/0", "b/0"]);
    expect(await shard.size()).toBe(0);
  });

  it("replays its entries in the order written and keeps them until they are cleared", async () => {
    const sent = recordIntakeQueue();
    const shard = shardNamed("replay");
    await shard.write([entry("e/0"), entry("e/1")]);
    await shard.write([entry("f/0")]);
    await shard.clear(["e/1"]);
    expect(await shard.replay()).toBe(2);
    expect(sent.flat()).toEqual([entry("e/0").body, entry("f/0").body]);
    expect(await shard.size()).toBe(2);
  });

  it("replays a large journal page by page, every entry once", async () => {
    const sent = recordIntakeQueue();
    const shard = shardNamed("pages");
    const entries = Array.from({ length: 450 }, (_, index) => entry(`g/${index}`));
    await shard.write(entries);
    expect(await shard.replay()).toBe(450);
    expect(sent.flat()).toEqual(entries.map(({ body }) => body));
    expect(sent.length).toBeGreaterThan(1);
  });

  it("replays nothing from an empty journal", async () => {
    const sent = recordIntakeQueue();
    expect(await shardNamed("empty").replay()).toBe(0);
    expect(sent).toEqual([]);
  });

  it("keeps its entries in SQLite storage", async () => {
    const shard = shardNamed("storage");
    await shard.write([entry("h/0")]);
    await runInDurableObject(shard, (_, state) => {
      const rows = state.storage.sql.exec<{ id: string; body: ArrayBuffer }>("SELECT id, body FROM message").toArray();
      expect(rows.map(({ id, body }) => ({ id, body: new Uint8Array(body) }))).toEqual([entry("h/0")]);
    });
  });

  it("takes over the JSON texts of a journal written before messages were bytes, and replays them as texts", async () => {
    const sent = recordIntakeQueue();
    const shard = shardNamed("before");
    const texts = [
      '{"kind":"intake","metrics":[],"journal":[0,"t/0"]}',
      '{"kind":"intake","metrics":[],"journal":[0,"t/1"]}',
    ];
    await runInDurableObject(shard, (_, state) => {
      state.storage.sql.exec("DROP TABLE message");
      state.storage.sql.exec("CREATE TABLE entry (id TEXT PRIMARY KEY, text TEXT NOT NULL)");
      for (const [index, text] of texts.entries()) {
        state.storage.sql.exec("INSERT INTO entry (id, text) VALUES (?, ?)", `t/${index}`, text);
      }
      // The object as it starts after the upgrade, on the storage the one before left.
      const upgraded = new IntakeJournal(state, env);
      expect(upgraded.size()).toBe(2);
      const tables = state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
      expect(tables.toArray().map(({ name }) => name)).not.toContain("entry");
    });
    expect(await shard.replay()).toBe(2);
    expect(sent.flat()).toEqual(texts);
    await shard.clear(["t/0", "t/1"]);
    expect(await shard.size()).toBe(0);
  });
});
