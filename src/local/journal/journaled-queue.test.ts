import { afterEach, describe, expect, it, vi } from "vitest";
import { drainProgress } from "../drain";
import { journalShard, journalShards } from "./journal-client";
import type { JournalEnvelope } from "./journal-envelope";
import { journaledQueue } from "./journaled-queue";
import { localTestEnv as env } from "./testing/local-test-env";
import { recordIntakeQueue } from "./testing/recorded-queue";

const bytes = (text: string) => new TextEncoder().encode(text);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("journaledQueue", () => {
  it("is one object per queue binding", () => {
    expect(journaledQueue(env)).toBe(journaledQueue(env));
  });

  it("sends a message in its envelope as a structured clone, once journaled, and counts it", async () => {
    const send = vi
      .spyOn(env.INTAKE_QUEUE, "send")
      .mockResolvedValue({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } });
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const before = drainProgress().intakeMessagesInFlight;

    await journaledQueue(env).send(bytes("one"), { contentType: "bytes", delaySeconds: 2 });

    const [envelope, options] = send.mock.calls[0]!;
    const { journalEntry, body } = envelope as JournalEnvelope;
    expect(options).toEqual({ contentType: "v8", delaySeconds: 2 });
    expect(body).toEqual(bytes("one"));
    expect(journalEntry[0]).toBe(journalShards / 2);
    expect(await journalShard(env, journalEntry[0]).size()).toBe(1);
    expect(drainProgress().intakeMessagesInFlight).toBe(before + 1);
  });

  it("sends a batch's messages in their envelopes, journaled in one shard, and counts them", async () => {
    const sent = recordIntakeQueue();
    const before = drainProgress().intakeMessagesInFlight;

    await journaledQueue(env).sendBatch([
      { body: bytes("a"), contentType: "bytes" },
      { body: bytes("b").buffer, contentType: "bytes" },
    ]);

    const envelopes = sent.flat() as JournalEnvelope[];
    expect(envelopes.map(({ body }) => new TextDecoder().decode(body))).toEqual(["a", "b"]);
    expect(new Set(envelopes.map(({ journalEntry: [shard] }) => shard)).size).toBe(1);
    expect(drainProgress().intakeMessagesInFlight).toBe(before + 2);
  });

  it("refuses a body that is not bytes, sending and journaling nothing", async () => {
    const sent = recordIntakeQueue();
    await expect(journaledQueue(env).send("text")).rejects.toThrow(
      "the intake journal keeps message bodies of bytes, not of type string",
    );
    expect(sent).toEqual([]);
  });

  it("fails when the queue refuses the send, and counts nothing", async () => {
    vi.spyOn(env.INTAKE_QUEUE, "send").mockRejectedValue(new Error("queue down"));
    const before = drainProgress().intakeMessagesInFlight;
    await expect(journaledQueue(env).send(bytes("refused"))).rejects.toThrow("queue down");
    expect(drainProgress().intakeMessagesInFlight).toBe(before);
  });
});
