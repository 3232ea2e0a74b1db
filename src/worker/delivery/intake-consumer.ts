import { getOrCreate } from "../common/get-or-create";
import type { Config } from "../config";
import { type IntakeMessage, readIntakeMessage } from "../intake/queue-message-bytes";
import type { FedMessage } from "../rules/rule-object";
import { flushSummary } from "../summary/summary-outbox";
import type { DatumRow } from "../vocabulary/datum";
import { deliverBatch } from "./fan-out";

/** Each metric's share of a batch as the rules that read it are fed: the messages that carried it, with its rows. */
function fedMessagesByMetric(
  messages: readonly Message[],
  bodies: readonly IntakeMessage[],
): Map<string, FedMessage[]> {
  const byMetric = new Map<string, FedMessage[]>();
  bodies.forEach((body, index) => {
    const messageId = messages[index]!.id;
    for (const [metric, rows] of body.metrics) getOrCreate(byMetric, metric, () => []).push({ messageId, rows });
  });
  return byMetric;
}

/**
 * Consumes accepted data: merges the whole batch by metric, delivers to each metric's observers,
 * and acknowledges a message once its data reached every observer or its backlog. A message
 * holding data of a metric whose observers could not be read or recorded is retried by the queue.
 * The data stay the rows the messages carry from here to the payloads and the backlogs, each with
 * the chain of upstream services its message names, if any. What rules are fed is made only for
 * the metrics rules read: a fleet's batch holds a thousand metrics in each of its messages.
 */
export async function consumeIntake(batch: MessageBatch, env: Env, config: Config): Promise<void> {
  // What the plan leases judge the batch by (see plan-cache.ts).
  const receivedAt = performance.now();
  const rowsByMetric = new Map<string, DatumRow[]>();
  const chains = new Map<DatumRow, readonly string[]>();
  const bodies = batch.messages.map((message) => readIntakeMessage(message.body));
  for (const body of bodies) {
    for (const [metric, rows] of body.metrics) {
      const merged = rowsByMetric.get(metric);
      if (merged === undefined) rowsByMetric.set(metric, rows.slice());
      else for (const row of rows) merged.push(row);
      if (body.via) for (const row of rows) chains.set(row, body.via);
    }
  }
  let fed: Map<string, FedMessage[]> | undefined;
  const messagesOf = (metric: string) => {
    fed ??= fedMessagesByMetric(batch.messages, bodies);
    return fed.get(metric) ?? [];
  };
  const failed = new Set(await deliverBatch(env, config, rowsByMetric, messagesOf, chains, receivedAt));
  // What the batch changed of the summary, and the data it delivered by leased plans: one request per shard its metrics are in.
  await flushSummary(env);
  batch.messages.forEach((message, index) => {
    if (bodies[index]!.metrics.some(([metric]) => failed.has(metric))) message.retry();
    else message.ack();
  });
}
