import type { Config } from "../config";
import { type DeliveryJob, runDeliveryJobs } from "./fan-out";
import { type DeliveryMessage, readBodies, rowsToData } from "./messages";
import { settleUndelivered } from "./retry-policy";

/** Consumes the retry path: each message is one observer's (or one metric's) undelivered data. */
export async function consumeDeliveries(batch: MessageBatch<string>, env: Env, config: Config): Promise<void> {
  const jobs: DeliveryJob[] = readBodies<DeliveryMessage>(batch).map((body) => ({
    metric: body.metric,
    observerId: body.observerId,
    webhookId: body.webhookId,
    attempts: body.attempts,
    data: rowsToData(body.metric, body.rows),
  }));
  const undelivered = await runDeliveryJobs(env, config, jobs);
  await settleUndelivered(env, config, undelivered.flat());
  batch.ackAll();
}
