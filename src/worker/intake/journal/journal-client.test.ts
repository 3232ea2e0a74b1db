import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { counting } from "../../../../test/api/support/durable-object-requests";
import type { Datum } from "../../vocabulary/datum";
import { encodeIntakeMessages, sendMessages } from "../queue-message";
import { readIntakeMessage } from "../queue-message-bytes";
import { clearJournalEntries, intakeMessagesSend, journalShard, journalShards, replayJournal } from "./journal-client";
import { recordIntakeQueue } from "./testing/recorded-queue";

const datum = (id: string, metric = "journal.client"): Datum => ({
  id,
  metric,
  timestamp: 1,
  value: 0.5,
  resourceId: "vm1",
});

/** Messages of `count` data each with a long resource id of its own, so that a send takes several messages. */
function messagesOf(prefix: string, data: number) {
  return encodeIntakeMessages(
    Array.from({ length: data }, (_, index) => ({
      ...datum(`${prefix}${index}`),
      resourceId: `${"r".repeat(1_000)}${index}`,
    })),
  );
}

const journaledSend = intakeMessagesSend(env, true);
const decoded = (bodies: readonly unknown[]) => bodies.map(readIntakeMessage);
const shardSizes = () =>
  Promise.all(Array.from({ length: journalShards }, (_, shard) => journalShard(env, shard).size()));

/** Empties a shard as its consumer would: replays it to a recorded queue and clears what went. */
async function consume(shard: number): Promise<void> {
  const sent = recordIntakeQueue();
  await journalShard(env, shard).replay();
  await clearJournalEntries(env, decoded(sent.flat()));
  vi.restoreAllMocks();
}

/** Reaching all 16 shards starts 16 objects, which takes seconds on a loaded machine. */
const allShardsTimeoutMs = 120_000;

afterEach(async () => {
  vi.restoreAllMocks();
  // Each test starts from an empty journal.
  for (const [shard, size] of (await shardSizes()).entries()) if (size > 0) await consume(shard);
}, allShardsTimeoutMs);

describe("intakeMessagesSend", () => {
  it("sends straight to the queue when the journal is off", () => {
    expect(intakeMessagesSend(env, false)).toBe(sendMessages);
  });

  it("journals a whole send in one shard with one write, and sends each message with its reference", async () => {
    const sent = recordIntakeQueue();
    vi.spyOn(Math, "random").mockReturnValue(0.3);
    const messages = messagesOf("a", 300);
    expect(messages.length).toBeGreaterThan(1);

    const { requests } = await counting(() => journaledSend(env.INTAKE_QUEUE, messages));

    expect(requests).toBe(1);
    const bodies = decoded(sent.flat());
    expect(bodies.map(({ metrics }) => metrics)).toEqual(decoded(messages).map((m) => m.metrics));
    const shard = Math.floor(0.3 * journalShards);
    expect(new Set(bodies.map(({ journal }) => journal![0]))).toEqual(new Set([shard]));
    expect(new Set(bodies.map(({ journal }) => journal![1])).size).toBe(messages.length);
    expect(await journalShard(env, shard).size()).toBe(messages.length);
  });

  it("fails when the queue refuses the send", async () => {
    vi.spyOn(env.INTAKE_QUEUE, "send").mockRejectedValue(new Error("queue down"));
    await expect(journaledSend(env.INTAKE_QUEUE, encodeIntakeMessages([datum("refused")]))).rejects.toThrow(
      "queue down",
    );
  });

  it("does nothing for no messages", async () => {
    const { requests } = await counting(() => journaledSend(env.INTAKE_QUEUE, []));
    expect(requests).toBe(0);
  });
});

describe("clearJournalEntries", () => {
  it("clears the entries of the given messages with one call per shard, and ignores messages not journaled", async () => {
    const sent = recordIntakeQueue();
    const random = vi.spyOn(Math, "random");
    for (const [index, value] of [0.01, 0.01, 0.99].entries()) {
      random.mockReturnValueOnce(value);
      await journaledSend(env.INTAKE_QUEUE, encodeIntakeMessages([datum(`c${index}`)]));
    }
    const [firstOfShard0, secondOfShard0, ofLastShard] = decoded(sent.flat());
    const plain = decoded(encodeIntakeMessages([datum("plain")]));

    const { requests } = await counting(() => clearJournalEntries(env, [firstOfShard0!, ofLastShard!, ...plain]));

    expect(requests).toBe(2);
    const sizes = await shardSizes();
    expect(sizes[0]).toBe(1);
    expect(sizes[journalShards - 1]).toBe(0);
    await clearJournalEntries(env, [secondOfShard0!]);
    expect(await shardSizes()).toEqual(Array(journalShards).fill(0));
  });
});

describe("replayJournal", () => {
  it(
    "sends every shard's entries again, as they were sent, and counts them",
    async () => {
      const sent = recordIntakeQueue();
      const random = vi.spyOn(Math, "random");
      for (const [index, value] of [0.1, 0.5, 0.5].entries()) {
        random.mockReturnValueOnce(value);
        await journaledSend(env.INTAKE_QUEUE, encodeIntakeMessages([datum(`r${index}`)]));
      }
      const original = sent.flat();
      sent.length = 0;

      expect(await replayJournal(env)).toBe(3);

      expect(sent.flat().sort()).toEqual([...original].sort());
    },
    allShardsTimeoutMs,
  );
});
