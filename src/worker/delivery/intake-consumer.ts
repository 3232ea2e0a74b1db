import { getOrCreate } from "../common/get-or-create";
import type { Config } from "../config";
import { readIntakeMessage } from "../intake/queue-message-bytes";
import type { FedMessage } from "../rules/rule-object";
import { flushSummary } from "../summary/summary-outbox";
import type { DatumRow } from "../vocabulary/datum";
import { deliverBatch } from "./fan-out";

/**
 * Consumes accepted data: merges the whole batch by metric, delivers to each metric's observers,
 * and acknowledges a message once its data reached every observer or its backlog. A message
 * holding data of a metric whose observers could not be read or recorded is retried by the queue.
 * The data stay the rows the messages carry from here to the payloads and the backlogs, each with
 * the chain of upstream services its message names, if any.
 */
export async function consumeIntake(batch: MessageBatch, env: Env, config: Config): Promise<void> {
  // What the plan leases judge the batch by (see plan-cache.ts).
  const receivedAt = performance.now();
  const rowsByMetric = new Map<string, DatumRow[]>();
  const messagesByMetric = new Map<string, FedMessage[]>();
  const chains = new Map<DatumRow, readonly string[]>();
  const bodies = batch.messages.map((message) => readIntakeMessage(message.body));
  const metricsOfMessage = batch.messages.map((message, index) => {
    const body = bodies[index]!;
    for (const [metric, rows] of body.metrics) {
      const merged = getOrCreate(rowsByMetric, metric, () => []);
      for (const row of rows) merged.push(row);
      if (body.via) for (const row of rows) chains.set(row, body.via);
      getOrCreate(messagesByMetric, metric, () => []).push({ messageId: message.id, rows });
    }
    return body.metrics.map(([metric]) => metric);
  });
  const failed = new Set(await deliverBatch(env, config, rowsByMetric, messagesByMetric, chains, receivedAt));
  // What the batch changed of the summary, and the data it delivered by leased plans: one request per shard its metrics are in.
  await flushSummary(env);
  batch.messages.forEach((message, index) => {
    if (metricsOfMessage[index]!.some((metric) => failed.has(metric))) message.retry();
    else message.ack();
  });
}
