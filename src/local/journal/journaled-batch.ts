import { intakeMessagesAcknowledged } from "../drain";
import type { LocalEnv } from "../local-env";
import { clearJournalEntries } from "./journal-client";
import { isJournalEnvelope, type JournalReference } from "./journal-envelope";

/**
 * Has `consume` (the Worker's queue handler) consume `batch` as the Worker sent it: each message's
 * body out of its journal envelope. Then, within the batch, so that a drain waits for it, clears
 * the journal entries of the messages acknowledged: those acknowledged and never retried, and, when
 * `consume` succeeded, those it did neither to (the queue acknowledges them). A message that may be
 * retried keeps its entry: the worst an entry left behind costs is a duplicate at the next replay.
 */
export async function consumeJournaled(
  env: LocalEnv,
  batch: MessageBatch,
  consume: (batch: MessageBatch) => Promise<void>,
): Promise<void> {
  const acked = new Set<Message>();
  const retried = new Set<Message>();
  const messages = batch.messages.map(
    (message): Message => ({
      id: message.id,
      timestamp: message.timestamp,
      attempts: message.attempts,
      body: isJournalEnvelope(message.body) ? message.body.body : message.body,
      ack() {
        acked.add(message);
        message.ack();
      },
      retry(options) {
        retried.add(message);
        message.retry(options);
      },
    }),
  );
  let succeeded = false;
  try {
    await consume({
      queue: batch.queue,
      metadata: batch.metadata,
      messages,
      ackAll() {
        for (const message of batch.messages) acked.add(message);
        batch.ackAll();
      },
      retryAll(options) {
        for (const message of batch.messages) retried.add(message);
        batch.retryAll(options);
      },
    });
    succeeded = true;
  } finally {
    const acknowledged = batch.messages.filter((message) => !retried.has(message) && (acked.has(message) || succeeded));
    const references: JournalReference[] = acknowledged.flatMap(({ body }) =>
      isJournalEnvelope(body) ? [body.journalEntry] : [],
    );
    await clearJournalEntries(env, references);
    intakeMessagesAcknowledged(acknowledged.length);
  }
}
