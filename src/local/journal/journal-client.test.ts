import { afterEach, describe, expect, it, vi } from "vitest";
import { clearJournalEntries, journalShard, journalShards, replayJournal, sendJournaled } from "./journal-client";
import type { JournalEnvelope, JournalReference } from "./journal-envelope";
import { localTestEnv as env } from "./testing/local-test-env";
import { recordIntakeQueue } from "./testing/recorded-queue";

const bytes = (text: string) => new TextEncoder().encode(text);

const shardSizes = () =>
  Promise.all(Array.from({ length: journalShards }, (_, shard) => journalShard(env, shard).size()));

/** Journals `bodies` as one send, and resolves with the references it gave them. */
async function journal(...bodies: string[]): Promise<JournalReference[]> {
  return sendJournaled(env, bodies.map(bytes), async (references) => references);
}

/** Reaching all 16 shards starts 16 objects, which takes seconds on a loaded machine. */
const allShardsTimeoutMs = 120_000;

afterEach(async () => {
  vi.restoreAllMocks();
  // Each test starts from an empty journal: what a replay sends is what it clears.
  const sent = recordIntakeQueue();
  await replayJournal(env);
  await clearJournalEntries(
    env,
    sent.flat().map((envelope) => (envelope as JournalEnvelope).journalEntry),
  );
  vi.restoreAllMocks();
}, allShardsTimeoutMs);

describe("sendJournaled", () => {
  it("journals a whole send in one shard and hands the send each body's reference there", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.3);
    const shard = Math.floor(0.3 * journalShards);

    const references = await journal("a", "b", "c");

    expect(references.map(([each]) => each)).toEqual([shard, shard, shard]);
    expect(new Set(references.map(([, entry]) => entry)).size).toBe(3);
    expect(await journalShard(env, shard).size()).toBe(3);
  });

  it("resolves with what the send resolved with, and fails when the send fails", async () => {
    expect(await sendJournaled(env, [bytes("x")], async () => "sent")).toBe("sent");
    await expect(sendJournaled(env, [bytes("y")], () => Promise.reject(new Error("queue down")))).rejects.toThrow(
      "queue down",
    );
  });
});

describe("clearJournalEntries", () => {
  it(
    "clears the entries named, whatever their shards, and ignores entries it does not hold",
    async () => {
      // Other test files' sends may hold entries in the shards meanwhile: sizes count from these.
      const before = await shardSizes();
      const random = vi.spyOn(Math, "random");
      random.mockReturnValueOnce(0.01);
      const [first, second] = await journal("c0", "c1");
      random.mockReturnValueOnce(0.99);
      const [ofLastShard] = await journal("c2");

      await clearJournalEntries(env, [first!, ofLastShard!, [0, "unknown/0"]]);

      const sizes = await shardSizes();
      expect(sizes[0]! - before[0]!).toBe(1);
      expect(sizes[journalShards - 1]! - before[journalShards - 1]!).toBe(0);
      await clearJournalEntries(env, [second!]);
      const after = await shardSizes();
      expect([after[0], after[journalShards - 1]]).toEqual([before[0], before[journalShards - 1]]);
    },
    allShardsTimeoutMs,
  );

  it("logs a shard it cannot clear, and does not fail: the entries wait for the next replay", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = { clear: () => Promise.reject(new Error("storage down")) };
    vi.spyOn(env.INTAKE_JOURNAL_SHARD, "getByName").mockReturnValue(broken as never);
    await expect(clearJournalEntries(env, [[3, "x/0"]])).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
  });
});

describe("replayJournal", () => {
  it(
    "sends every shard's entries again, each in its envelope, and counts them",
    async () => {
      const random = vi.spyOn(Math, "random");
      for (const value of [0.1, 0.5]) {
        random.mockReturnValueOnce(value);
        await journal(`r${value}`);
      }
      const sent = recordIntakeQueue();

      expect(await replayJournal(env)).toBe(2);

      const envelopes = sent.flat() as JournalEnvelope[];
      expect(envelopes.map(({ journalEntry: [shard] }) => shard).sort()).toEqual([1, 8]);
      expect(envelopes.map(({ body }) => new TextDecoder().decode(body)).sort()).toEqual(["r0.1", "r0.5"]);
    },
    allShardsTimeoutMs,
  );
});
