import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordIntakeQueue } from "./testing/recorded-queue";

/** A shard of its own for each test. */
const shardNamed = (name: string) => env.INTAKE_JOURNAL_SHARD.getByName(`journal-test-${name}`);

const entry = (id: string) => ({ id, text: `{"journal":[0,"${id}"],"kind":"intake","metrics":[]}` });

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
    expect(sent.flat()).toEqual([entry("e/0").text, entry("f/0").text]);
    expect(await shard.size()).toBe(2);
  });

  it("replays a large journal page by page, every entry once", async () => {
    const sent = recordIntakeQueue();
    const shard = shardNamed("pages");
    const entries = Array.from({ length: 450 }, (_, index) => entry(`g/${index}`));
    await shard.write(entries);
    expect(await shard.replay()).toBe(450);
    expect(sent.flat()).toEqual(entries.map(({ text }) => text));
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
      expect(state.storage.sql.exec("SELECT id, text FROM entry").toArray()).toEqual([entry("h/0")]);
    });
  });
});
