import { getOrCreate } from "../../shared/get-or-create";
import type { Config } from "../config";
import type { Datum } from "../intake/datum";
import { type IntakeMessage, rowsToData } from "../intake/queue-message";
import { intakeMessagesAcknowledged } from "../ops/drain";
import type { FedMessage } from "../rules/rule-object";
import { deliverBatch } from "./fan-out";

/**
 * Consumes accepted data: merges the whole batch by metric, delivers to each metric's observers,
 * and acknowledges a message once its data reached every observer or its backlog. A message
 * holding data of a metric whose observers could not be read or recorded is retried by the queue.
 */
export async function consumeIntake(batch: MessageBatch<string>, env: Env, config: Config): Promise<void> {
  const dataByMetric = new Map<string, Datum[]>();
  const messagesByMetric = new Map<string, FedMessage[]>();
  const metricsOfMessage = batch.messages.map((message) => {
    const body = JSON.parse(message.body) as IntakeMessage;
    for (const [metric, rows] of body.metrics) {
      getOrCreate(dataByMetric, metric, () => []).push(...rowsToData(metric, rows));
      getOrCreate(messagesByMetric, metric, () => []).push({ messageId: message.id, rows });
    }
    return body.metrics.map(([metric]) => metric);
  });
  const failed = new Set(await deliverBatch(env, config, dataByMetric, messagesByMetric));
  let acknowledged = 0;
  batch.messages.forEach((message, index) => {
    if (metricsOfMessage[index]!.some((metric) => failed.has(metric))) {
      message.retry();
    } else {
      message.ack();
      acknowledged += 1;
    }
  });
  intakeMessagesAcknowledged(acknowledged);
}
