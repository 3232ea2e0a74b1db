import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { drainProgress } from "../drain";
import { journalShard } from "./journal-client";
import type { JournalEnvelope } from "./journal-envelope";
import { consumeJournaled } from "./journaled-batch";
import { localTestEnv as env } from "./testing/local-test-env";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A batch of messages `m0`, `m1`…, each journaled in `shard` under its message id. */
async function journaledBatch(shard: number, count: number) {
  const ids = Array.from({ length: count }, (_, index) => `m${index}`);
  await journalShard(env, shard).write(ids.map((id) => ({ id, body: bytes(id) })));
  const envelopes = ids.map((id): JournalEnvelope => ({ journalEntry: [shard, id], body: bytes(id) }));
  return createMessageBatch(
    "tower-intake",
    envelopes.map((body, index) => ({ id: ids[index]!, timestamp: new Date(), attempts: 1, body })),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("consumeJournaled", () => {
  it("hands the consumer each message's own body, and passes on what it acknowledges and retries", async () => {
    const batch = await journaledBatch(0, 3);
    const seen: unknown[] = [];

    await consumeJournaled(env, batch, async (unwrapped) => {
      for (const message of unwrapped.messages) seen.push(message.body);
      unwrapped.messages[0]!.ack();
      unwrapped.messages[1]!.retry();
    });

    expect(seen).toEqual([bytes("m0"), bytes("m1"), bytes("m2")]);
    expect(await getQueueResult(batch, createExecutionContext())).toMatchObject({
      explicitAcks: ["m0"],
      retryMessages: [{ msgId: "m1" }],
    });
  });

  it("clears the entries of the messages acknowledged, explicitly or by success, and counts them", async () => {
    const batch = await journaledBatch(1, 3);
    const before = drainProgress().intakeMessagesInFlight;

    await consumeJournaled(env, batch, async (unwrapped) => {
      unwrapped.messages[0]!.ack();
      unwrapped.messages[1]!.retry();
    });

    expect(await journalShard(env, 1).size()).toBe(1);
    expect(drainProgress().intakeMessagesInFlight).toBe(before - 2);
  });

  it("keeps every entry the queue may deliver again when the consumer fails: all but those acknowledged", async () => {
    const batch = await journaledBatch(2, 3);

    await expect(
      consumeJournaled(env, batch, async (unwrapped) => {
        unwrapped.messages[2]!.ack();
        throw new Error("consumer failed");
      }),
    ).rejects.toThrow("consumer failed");

    expect(await journalShard(env, 2).size()).toBe(2);
  });

  it("follows ackAll and retryAll, a retry winning over an acknowledgement", async () => {
    const acknowledged = await journaledBatch(3, 2);
    await consumeJournaled(env, acknowledged, async (unwrapped) => unwrapped.ackAll());
    expect(await journalShard(env, 3).size()).toBe(0);

    const retried = await journaledBatch(4, 2);
    await consumeJournaled(env, retried, async (unwrapped) => {
      unwrapped.messages[0]!.ack();
      unwrapped.retryAll();
    });
    expect(await journalShard(env, 4).size()).toBe(2);
  });

  it("hands a message without an envelope on as it is", async () => {
    const batch = createMessageBatch("tower-intake", [
      { id: "plain", timestamp: new Date(), attempts: 1, body: bytes("p") },
    ]);
    const seen: unknown[] = [];
    await consumeJournaled(env, batch, async (unwrapped) => {
      seen.push(...unwrapped.messages.map(({ body }) => body));
    });
    expect(seen).toEqual([bytes("p")]);
  });
});
