import type { Datum } from "../intake/datum";
import type { ObserverTarget } from "../metrics/observer-schema";

/** Data owed to one observer, as one payload (or one relay delivery). */
export interface Delivery {
  metric: string;
  target: ObserverTarget;
  data: Datum[];
  /** Stable across retries, so a signed receiver can drop a duplicate (Standard Webhooks `webhook-id`). */
  webhookId: string;
}

export interface DeliveryResult {
  delivery: Delivery;
  ok: boolean;
  /** The observer answered 410 Gone: it asks to be removed. */
  gone?: boolean;
  error?: string;
}

export function newWebhookId(): string {
  return `msg_${crypto.randomUUID()}`;
}
