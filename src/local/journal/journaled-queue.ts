import { intakeMessagesWritten } from "../drain";
import type { LocalEnv } from "../local-env";
import { sendJournaled } from "./journal-client";
import { envelopeContentType, type JournalEnvelope, journaledBytes } from "./journal-envelope";

const journaledQueues = new WeakMap<Queue, Queue>();

/**
 * The intake queue as the Worker's code sees it locally: every send is journaled (journal-client.ts)
 * and goes to the queue in envelopes naming the journal entries, and counted for a drain. One
 * object per queue binding, as the binding is one object for all the isolate's requests.
 */
export function journaledQueue(env: LocalEnv): Queue {
  const queue = env.INTAKE_QUEUE;
  let journaled = journaledQueues.get(queue);
  if (journaled === undefined) {
    journaled = {
      async send(body, options) {
        const bytes = journaledBytes(body);
        const sent = await sendJournaled(env, [bytes], ([journalEntry]) => {
          const envelope: JournalEnvelope = { journalEntry: journalEntry!, body: bytes };
          return queue.send(envelope, { ...options, contentType: envelopeContentType });
        });
        intakeMessagesWritten(1);
        return sent;
      },
      async sendBatch(messages, options) {
        const requests = [...messages];
        const bodies = requests.map(({ body }) => journaledBytes(body));
        const sent = await sendJournaled(env, bodies, (references) =>
          queue.sendBatch(
            requests.map((request, index) => ({
              ...request,
              body: { journalEntry: references[index]!, body: bodies[index]! } satisfies JournalEnvelope,
              contentType: envelopeContentType,
            })),
            options,
          ),
        );
        intakeMessagesWritten(requests.length);
        return sent;
      },
      metrics: () => queue.metrics(),
    };
    journaledQueues.set(queue, journaled);
  }
  return journaled;
}
