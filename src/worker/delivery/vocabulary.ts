/*
 * The words of the delivery side, in one place: whom a batch's data go to (targets and their
 * plan), one payload to one observer (a delivery) and how it went (result), what a batch reports
 * to the metric's object (attempts, and data still owed, which go to the observer's backlog), and
 * what an observer's status and attempt log show.
 */
import type { DatumRow } from "../intake/datum";
import type { ObserverFormat, ObserverProtocol } from "../metrics/observer-kinds";

/** An observer as the delivery side needs it: where, in which format, and how to sign. */
export interface DeliveryTarget {
  id: string;
  format: ObserverFormat;
  protocol: ObserverProtocol;
  callbackUrl?: string;
  observerHost?: string;
  observerPort?: number;
  /** The secrets that sign each HTTP delivery: the current one, and the one it replaced while the rotation lasts. */
  secrets: string[];
  /** Extra request headers of HTTP deliveries (e.g. Authorization for the receiver). */
  headers: Record<string, string>;
  /** A monitoring rule's REST call: one request per datum with this method (GET and DELETE carry no body). */
  method?: "GET" | "POST" | "PUT" | "DELETE";
}

/**
 * An observer's part in a batch: delivered to now, or `held` — its data go straight to its backlog
 * because it is paused or disabled, or because older data wait there and order must be kept.
 */
export interface ObserverPlan {
  target: DeliveryTarget;
  held: boolean;
  /** How long its latest attempt took to succeed; absent when that attempt failed, or it has had none. */
  answeredInMs?: number;
}

/** What a batch's data of one metric go to: its observers, and the enabled rules that read it. */
export interface MetricPlan {
  observers: ObserverPlan[];
  ruleReaders: string[];
  /**
   * The batch's turn at delivering directly to the metric's observers, which the batch hands back
   * in its report; absent when no observer is delivered to directly.
   */
  turn?: number;
}

/** Data owed to one observer, as one payload (or one relay delivery). */
export interface Delivery {
  metric: string;
  target: DeliveryTarget;
  /** The payload's data, as queue messages carry them; every observer of a payload gets the same array. */
  rows: DatumRow[];
  /** Stable across retries, so a receiver can drop a duplicate (Standard Webhooks `webhook-id`). */
  webhookId: string;
  /** Which attempt at these data this is (1 = the first). */
  attempt: number;
  /** A batch's delivery: abandoned (deferred to the backlog) when not answered this long after it was sent. */
  answerWaitMs?: number;
}

export interface DeliveryResult {
  delivery: Delivery;
  ok: boolean;
  /** The observer answered 410 Gone: it asks to be removed. */
  gone?: boolean;
  /** Not finished within the batch's budget: the data continue from the backlog, the observer is not failing. */
  deferred?: boolean;
  error?: string;
  httpStatus?: number;
  /** How long a 429 or 503 answer asked the service to wait. */
  retryAfterSeconds?: number;
  latencyMs: number;
}

/** One entry of an observer's attempt log, as `GET …/attempts` shows it. */
export interface AttemptRecord {
  /** ISO 8601. */
  at: string;
  attempt: number;
  ok: boolean;
  httpStatus?: number;
  error?: string;
  latencyMs: number;
  data: number;
  webhookId: string;
}

/** What one attempt came to, as the metric's object records it: the result without the data themselves. */
export type AttemptReport = Omit<DeliveryResult, "delivery"> & {
  observerId: string;
  data: number;
  webhookId: string;
  attempt: number;
  /** Epoch milliseconds. */
  at: number;
};

/** Data that some observers of a metric have not received: they go to each one's backlog. */
export interface OwedData {
  rows: DatumRow[];
  /** Each observer, with the webhook id its attempt used (none for held data: one is assigned). */
  observers: { id: string; webhookId?: string; attempts: number }[];
}

/** What a consumer batch reports to a metric's object, in one call. */
export interface BatchReport {
  attempts: AttemptReport[];
  owed: OwedData[];
  /** The turn the batch's plan gave it (see MetricPlan), handed back once its outcome is known. */
  turn?: number;
}

export type ObserverState = "active" | "paused" | "disabled";

/** How deliveries to an observer go; timestamps are ISO 8601, null until the first of their kind. */
export interface DeliveryStatus {
  /** Data delivered. */
  delivered: number;
  /** Attempts that failed. */
  failed: number;
  /** Data tried for the whole retry schedule, kept for replay. */
  dead: number;
  /** Data dropped: dead past their retention, or over the backlog's cap. */
  dropped: number;
  /** `dead` + `dropped`, for clients of the first status shape. */
  lost: number;
  /** Data waiting in the backlog. */
  backlog: number;
  oldestBacklogAt: string | null;
  nextAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

/**
 * Most data in one payload. A batch normally gives each observer one payload; a batch larger than
 * this (tens of full intake messages on one metric) gives it several, which bounds the memory a
 * payload takes and keeps relay requests under the relay's body limit. A backlog chunk is one payload.
 */
export const maxDataPerPayload = 10_000;

export function newWebhookId(): string {
  return `msg_${crypto.randomUUID()}`;
}
