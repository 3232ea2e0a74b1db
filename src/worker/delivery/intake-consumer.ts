import { getOrCreate } from "../common/get-or-create";
import type { Config } from "../config";
import { clearJournalEntries } from "../intake/journal/journal-client";
import { type IntakeMessage, readIntakeMessage } from "../intake/queue-message-bytes";
import { intakeMessagesAcknowledged } from "../ops/drain";
import type { FedMessage } from "../rules/rule-object";
import type { DatumRow } from "../vocabulary/datum";
import { deliverBatch } from "./fan-out";

/**
 * Consumes accepted data: merges the whole batch by metric, delivers to each metric's observers,
 * and acknowledges a message once its data reached every observer or its backlog. A message
 * holding data of a metric whose observers could not be read or recorded is retried by the queue.
 * The journal entries of the acknowledged messages, if journaled (INTAKE_JOURNAL), are cleared.
 * The data stay the rows the messages carry from here to the payloads and the backlogs.
 */
export async function consumeIntake(batch: MessageBatch, env: Env, config: Config): Promise<void> {
  const rowsByMetric = new Map<string, DatumRow[]>();
  const messagesByMetric = new Map<string, FedMessage[]>();
  const bodies = batch.messages.map((message) => readIntakeMessage(message.body));
  const metricsOfMessage = batch.messages.map((message, index) => {
    const body = bodies[index]!;
    for (const [metric, rows] of body.metrics) {
      const merged = getOrCreate(rowsByMetric, metric, () => []);
      for (const row of rows) merged.push(row);
      getOrCreate(messagesByMetric, metric, () => []).push({ messageId: message.id, rows });
    }
    return body.metrics.map(([metric]) => metric);
  });
  const failed = new Set(await deliverBatch(env, config, rowsByMetric, messagesByMetric));
  const acknowledged: IntakeMessage[] = [];
  batch.messages.forEach((message, index) => {
    if (metricsOfMessage[index]!.some((metric) => failed.has(metric))) {
      message.retry();
    } else {
      message.ack();
      acknowledged.push(bodies[index]!);
    }
  });
  // Within the batch, so that a drain waits for it: after a graceful stop the journal is empty.
  await clearJournalEntries(env, acknowledged);
  intakeMessagesAcknowledged(acknowledged.length);
}
