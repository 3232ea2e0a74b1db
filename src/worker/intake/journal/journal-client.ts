import { getOrCreate } from "../../common/get-or-create";
import { countingRequests } from "../../common/usage";
import { sendMessages } from "../queue-message";
import { type IntakeMessage, withJournalReference } from "../queue-message-bytes";
import type { IntakeJournal } from "./intake-journal";

/**
 * Shards of the intake journal. Each send goes to one of them, chosen at random, so that no one
 * object is on the path of every send.
 */
export const journalShards = 16;

/** The journal shard of that number. */
export function journalShard(env: Env, shard: number): DurableObjectStub<IntakeJournal> {
  return countingRequests(env.INTAKE_JOURNAL_SHARD.getByName(`intake-journal-${shard}`));
}

/** How messages go to the intake queue. */
export type MessagesSend = (queue: Queue, messages: readonly Uint8Array[]) => Promise<unknown>;

/**
 * Sends messages to the queue and journals them in one shard, one write for the whole send, both at
 * once: the send counts as done only once both have succeeded. Should the consumer acknowledge a
 * message before its entry is written, the entry stays until the next replay, which then makes a
 * duplicate, never a loss.
 */
async function sendJournaled(env: Env, queue: Queue, messages: readonly Uint8Array[]): Promise<void> {
  if (messages.length === 0) return;
  const shard = Math.floor(Math.random() * journalShards);
  const send = crypto.randomUUID();
  const ids = messages.map((_, index) => `${send}/${index}`);
  const referenced = messages.map((message, index) => withJournalReference(message, [shard, ids[index]!]));
  await Promise.all([
    journalShard(env, shard).write(referenced.map((body, index) => ({ id: ids[index]!, body }))),
    sendMessages(queue, referenced),
  ]);
}

/** How the intake sends its messages: journaled when INTAKE_JOURNAL is on, else straight to the queue. */
export function intakeMessagesSend(env: Env, journaled: boolean): MessagesSend {
  return journaled ? (queue, messages) => sendJournaled(env, queue, messages) : sendMessages;
}

/**
 * Clears the journal entries of acknowledged messages: one call per shard. Never throws: an entry
 * left behind costs a duplicate at the next replay, not a lost datum, so it does not fail the batch.
 */
export async function clearJournalEntries(env: Env, messages: readonly IntakeMessage[]): Promise<void> {
  const idsByShard = new Map<number, string[]>();
  for (const { journal } of messages) {
    if (!journal) continue;
    const [shard, entry] = journal;
    getOrCreate(idsByShard, shard, () => []).push(entry);
  }
  await Promise.all(
    [...idsByShard].map(([shard, ids]) =>
      journalShard(env, shard)
        .clear(ids)
        .catch((error: unknown) => {
          console.error(
            `intake journal: clearing ${ids.length} entries of shard ${shard} failed; the next replay sends them again:`,
            error instanceof Error ? error.message : error,
          );
        }),
    ),
  );
}

/** Sends every shard's entries to the queue again; resolves with the number of messages sent. */
export async function replayJournal(env: Env): Promise<number> {
  const counts = await Promise.all(
    Array.from({ length: journalShards }, (_, shard) => journalShard(env, shard).replay()),
  );
  return counts.reduce((total, count) => total + count, 0);
}
