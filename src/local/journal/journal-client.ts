import { getOrCreate } from "../../worker/common/get-or-create";
import type { LocalEnv } from "../local-env";
import type { IntakeJournal, JournalEntry } from "./intake-journal";
import type { JournalReference } from "./journal-envelope";

/**
 * Shards of the intake journal. Each send goes to one of them, chosen at random, so that no one
 * object is on the path of every send.
 */
export const journalShards = 16;

/** The journal shard of that number. */
export function journalShard(env: LocalEnv, shard: number): DurableObjectStub<IntakeJournal> {
  return env.INTAKE_JOURNAL_SHARD.getByName(`intake-journal-${shard}`);
}

/**
 * Journals one send's message bodies in one shard, with one write, while `send` sends them in
 * their envelopes (given their references): the send counts as done only once both have
 * succeeded. Should the consumer acknowledge a message before its entry is written, the entry stays
 * until the next replay, which then makes a duplicate, never a loss.
 */
export async function sendJournaled<T>(
  env: LocalEnv,
  bodies: readonly Uint8Array[],
  send: (references: JournalReference[]) => Promise<T>,
): Promise<T> {
  const shard = Math.floor(Math.random() * journalShards);
  const sendId = crypto.randomUUID();
  const entries: JournalEntry[] = bodies.map((body, index) => ({ id: `${sendId}/${index}`, body }));
  const [, sent] = await Promise.all([
    journalShard(env, shard).write(entries),
    send(entries.map(({ id }): JournalReference => [shard, id])),
  ]);
  return sent;
}

/**
 * Clears the journal entries of acknowledged messages: one call per shard. Never throws: an entry
 * left behind costs a duplicate at the next replay, not a lost datum, so it does not fail the batch.
 */
export async function clearJournalEntries(env: LocalEnv, references: readonly JournalReference[]): Promise<void> {
  const idsByShard = new Map<number, string[]>();
  for (const [shard, entry] of references) getOrCreate(idsByShard, shard, () => []).push(entry);
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
export async function replayJournal(env: LocalEnv): Promise<number> {
  const counts = await Promise.all(
    Array.from({ length: journalShards }, (_, shard) => journalShard(env, shard).replay(shard)),
  );
  return counts.reduce((total, count) => total + count, 0);
}
