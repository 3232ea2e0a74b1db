/*
 * The words of the delivery side, in one place: what is owed to observers (jobs), one payload to
 * one observer (a delivery) and how it went (result), what stays owed (undelivered), how that is
 * carried on the retry queue (message), and what the metric's object records (outcome, status).
 */
import type { Datum } from "../intake/datum";
import type { DatumRow } from "../intake/queue-message";
import type { ObserverTarget } from "../metrics/observer-schema";

/** Data of one metric owed to every observer of the metric, or to one observer (`observerId`). */
export interface DeliveryJob {
  metric: string;
  data: Datum[];
  observerId?: string;
  webhookId?: string;
  /** Attempts made before this one. */
  attempts: number;
}

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

/** What a job could not deliver, and to whom (no `observerId`: the observers could not be looked up). */
export interface Undelivered {
  metric: string;
  observerId?: string;
  webhookId?: string;
  data: Datum[];
  /** Attempts made, this one included. */
  attempts: number;
  error: string;
}

/**
 * Undelivered data on the retry and dead-letter queues: owed to one observer (`observerId`), or to
 * every observer of the metric when the observers could not be looked up.
 */
export interface DeliveryMessage {
  kind: "delivery";
  metric: string;
  observerId?: string;
  webhookId?: string;
  /** Attempts made so far. */
  attempts: number;
  /** Why the last attempt failed. */
  lastError: string;
  rows: DatumRow[];
}

/** What one delivery attempt to one observer came to, as the metric's object records it. */
export interface DeliveryOutcome {
  observerId: string;
  ok: boolean;
  /** Number of data the attempt carried. */
  data: number;
  /** Epoch milliseconds. */
  at: number;
  error?: string;
  /** The data were given up on (dead-lettered). */
  lost?: boolean;
}

/** How deliveries to an observer went; timestamps are ISO 8601, null until the first of their kind. */
export interface DeliveryStatus {
  delivered: number;
  failed: number;
  lost: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

export function newWebhookId(): string {
  return `msg_${crypto.randomUUID()}`;
}
