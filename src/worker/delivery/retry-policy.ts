import type { Config } from "../config";
import { type EncodedMessage, sendMessages } from "../intake/queue-message";
import { encodeDeliveryMessages } from "./retry-message";
import type { Undelivered } from "./vocabulary";

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential from the base, capped,
 * with "equal jitter" (half fixed, half random) so that observers failing together do not retry
 * in lockstep.
 */
export function retryDelaySeconds(attempt: number, config: Config, random: () => number = Math.random): number {
  const ceiling = Math.min(config.RETRY_MAX_DELAY_SECONDS, config.RETRY_BASE_DELAY_SECONDS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

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
export async function settleUndelivered(env: Env, config: Config, undelivered: readonly Undelivered[]): Promise<void> {
  const exhausted = undelivered.filter((item) => item.attempts >= config.DELIVERY_MAX_ATTEMPTS);
  const retried = undelivered.filter((item) => item.attempts < config.DELIVERY_MAX_ATTEMPTS);
  await Promise.all([
    sendMessages(
      env.DELIVERY_QUEUE,
      retried.flatMap((item) => toMessages(item, retryDelaySeconds(item.attempts, config))),
    ),
    sendMessages(
      env.DEAD_LETTER_QUEUE,
      exhausted.flatMap((item) => toMessages(item)),
    ),
  ]);
}
