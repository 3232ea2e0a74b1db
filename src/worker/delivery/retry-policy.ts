import type { Config } from "../config";
import { retryDelaySeconds } from "./backoff";
import type { Undelivered } from "./fan-out";
import { type EncodedMessage, encodeDeliveryMessages, sendMessages } from "./messages";

function toMessages(undelivered: Undelivered, delaySeconds?: number): EncodedMessage[] {
  const { metric, observerId, webhookId, attempts, data, error } = undelivered;
  return encodeDeliveryMessages({ metric, observerId, webhookId, attempts, lastError: error }, data).map((message) =>
    delaySeconds === undefined ? message : { ...message, delaySeconds },
  );
}

/**
 * Decides the fate of what a delivery attempt left undelivered: another try on the delivery queue
 * after a jittered exponential backoff, or — after DELIVERY_MAX_ATTEMPTS — the dead-letter queue,
 * whose consumer records the loss on the observer's status. Each message carries one observer's
 * data, so a retry never reaches an observer that already has the data.
 */
export async function settleUndelivered(env: Env, config: Config, undelivered: Undelivered[]): Promise<void> {
  const exhausted = undelivered.filter((item) => item.attempts >= config.DELIVERY_MAX_ATTEMPTS);
  const retried = undelivered.filter((item) => item.attempts < config.DELIVERY_MAX_ATTEMPTS);
  await Promise.all([
    sendMessages(
      env.DELIVERY_QUEUE,
      retried.flatMap((item) => toMessages(item, retryDelaySeconds(item.attempts, config))),
    ),
    sendMessages(env.DEAD_LETTER_QUEUE, exhausted.flatMap((item) => toMessages(item))),
  ]);
}
