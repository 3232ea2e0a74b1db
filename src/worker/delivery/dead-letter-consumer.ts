import { readBodies } from "../intake/queue-message";
import { metricStub } from "../metrics/metric-object";
import type { DeliveryMessage, DeliveryOutcome } from "./vocabulary";

/**
 * Records each dead-lettered delivery as lost data on its observer's status. A metric-level
 * message (its observers could never be looked up) names no observer, so it can only be logged.
 */
export async function consumeDeadLetters(batch: MessageBatch<string>, env: Env): Promise<void> {
  const outcomesByMetric = new Map<string, DeliveryOutcome[]>();
  const at = Date.now();
  for (const body of readBodies<DeliveryMessage>(batch)) {
    const error = `gave up after ${body.attempts} attempts: ${body.lastError}`;
    if (body.observerId === undefined) {
      console.error(`dead letter: ${body.rows.length} data of metric ${JSON.stringify(body.metric)} lost; ${error}`);
      continue;
    }
    const outcomes = outcomesByMetric.get(body.metric) ?? [];
    outcomes.push({ observerId: body.observerId, ok: false, lost: true, data: body.rows.length, at, error });
    outcomesByMetric.set(body.metric, outcomes);
  }
  await Promise.all(
    [...outcomesByMetric].map(([metric, outcomes]) => metricStub(env, metric).recordDeliveries(outcomes)),
  );
  batch.ackAll();
}
