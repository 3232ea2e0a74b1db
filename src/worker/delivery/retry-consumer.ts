import type { Config } from "../config";
import { readBodies, rowsToData } from "../intake/queue-message";
import { runDeliveryJobs } from "./fan-out";
import { settleUndelivered } from "./retry-policy";
import type { DeliveryJob, DeliveryMessage } from "./vocabulary";

/** Consumes the retry path: each message is one observer's (or one metric's) undelivered data. */
export async function consumeRetries(batch: MessageBatch<string>, env: Env, config: Config): Promise<void> {
  const jobs: DeliveryJob[] = readBodies<DeliveryMessage>(batch).map((body) => ({
    metric: body.metric,
    observerId: body.observerId,
    webhookId: body.webhookId,
    attempts: body.attempts,
    data: rowsToData(body.metric, body.rows),
  }));
  await settleUndelivered(env, config, await runDeliveryJobs(env, config, jobs));
  batch.ackAll();
}
