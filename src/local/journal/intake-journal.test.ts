import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JournalEnvelope } from "./journal-envelope";
import { localTestEnv } from "./testing/local-test-env";
import { recordIntakeQueue } from "./testing/recorded-queue";

/** A shard of its own for each test. */
const shardNamed = (name: string) => localTestEnv.INTAKE_JOURNAL_SHARD.getByName(`journal-test-${name}`);

/** An entry whose body is its id's bytes: the journal keeps bodies as they are. */
const entry = (id: string) => ({ id, body: new TextEncoder().encode(id) });

/** The envelope a replay of shard `shard` sends for `id`. */
const envelope = (shard: number, id: string): JournalEnvelope => ({ journalEntry: [shard, id], body: entry(id).body });

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

  it("replays its entries in the order written, each in its envelope, and keeps them until they are cleared", async () => {
    const sent = recordIntakeQueue();
    const shard = shardNamed("replay");
    await shard.write([entry("e/0"), entry("e/1")]);
    await shard.write([entry("f/0")]);
    await shard.clear(["e/1"]);
    expect(await shard.replay(7)).toBe(2);
    expect(sent.flat()).toEqual([envelope(7, "e/0"), envelope(7, "f/0")]);
    expect(await shard.size()).toBe(2);
  });

  it("replays a large journal page by page, every entry once, within the queue's limits per call", async () => {
    const sent = recordIntakeQueue();
    const shard = shardNamed("pages");
    const entries = Array.from({ length: 450 }, (_, index) => entry(`g/${index}`));
    await shard.write(entries);
    expect(await shard.replay(1)).toBe(450);
    expect(sent.flat()).toEqual(entries.map(({ id }) => envelope(1, id)));
    expect(Math.max(...sent.map((call) => call.length))).toBe(100);
  });

  it("replays nothing from an empty journal", async () => {
    const sent = recordIntakeQueue();
    expect(await shardNamed("empty").replay(0)).toBe(0);
    expect(sent).toEqual([]);
  });

  it("keeps its entries in SQLite storage", async () => {
    const shard = shardNamed("storage");
    await shard.write([entry("h/0")]);
    await runInDurableObject(shard, (_, state) => {
      const rows = state.storage.sql
        .exec<{ id: string; body: ArrayBuffer }>("SELECT id, body FROM journal_entry")
        .toArray();
      expect(rows.map(({ id, body }) => ({ id, body: new Uint8Array(body) }))).toEqual([entry("h/0")]);
    });
  });
});
