/*
 * The words of the delivery side, in one place: whom a batch's data go to (targets and their
 * plan), one payload to one observer (a delivery) and how it went (result), what a batch reports
 * to the metric's object (attempts, and data still owed, which go to the observer's backlog), and
 * what an observer's status and attempt log show.
 */

import type { ObserverFormat, ObserverProtocol } from "../metrics/observer-kinds";
import type { ResourceSelection } from "../observers/model-selection/resource-selection-schema";
import type { DatumRow } from "./datum";

/** Labels an observer adds to and drops from the series it receives, in the formats that carry labels. */
export interface LabelChanges {
  add?: Record<string, string>;
  drop?: string[];
}

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
  /** A selector observer's changes to the labels of what it receives. */
  labels?: LabelChanges;
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

/**
 * An observer that follows selectors, as each metric's object keeps it: what the consumer matches
 * the metric's data against. Its target and state are in its own object.
 */
export interface SelectorEntry {
  id: string;
  /** PromQL series selectors, as sent. */
  match?: readonly string[];
  resources?: ResourceSelection;
}

/**
 * What a batch's data of one metric go to: its observers, the observers that follow selectors
 * (which may want some of the data), and the enabled rules that read it.
 */
export interface MetricPlan {
  observers: ObserverPlan[];
  selectors: SelectorEntry[];
  ruleReaders: string[];
  /**
   * The batch's turn at delivering directly to the metric's observers, which the batch hands back
   * in its report; absent when no observer is delivered to directly.
   */
  turn?: number;
}

/** Data of one metric in a payload, as queue messages carry them. */
export type MetricRun = readonly [metric: string, rows: readonly DatumRow[]];

/** A datum of a selector observer's backlog, which holds data of many metrics: the metric, and the row. */
export type MetricDatum = readonly [metric: string, row: DatumRow];

/** Data owed to one observer, as one payload (or one relay delivery). */
export interface Delivery {
  target: DeliveryTarget;
  /**
   * The payload's data in runs of one metric each: one run for a per-metric observer, a run per
   * metric for a selector observer. Every observer of a payload gets the same array.
   */
  runs: readonly MetricRun[];
  /**
   * The upstream services the payload's data came through (`tower-edge-via`), oldest first: the
   * union of their chains, each id once; none when absent.
   */
  via?: readonly string[];
  /** Which observer's payloads go one after the other, in order (see dispatch.ts). */
  lane: string;
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
  /** A metrics backend refused the data for good (400, 409, 422): they are dead at once, and the observer goes on. */
  refused?: boolean;
  /** Data points an OTLP receiver took but rejected (its partialSuccess), which are not sent again. */
  rejected?: number;
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
  /** Data points an OTLP receiver rejected (its partialSuccess). */
  rejected?: number;
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

/**
 * Data that some observers have not received: they go to each one's backlog. A metric's object
 * keeps rows of its metric, a selector observer's object rows with their metric (`Item`).
 */
export interface OwedData<Item = DatumRow> {
  rows: readonly Item[];
  /** The upstream services the data came through (see Delivery); none when absent. */
  via?: readonly string[];
  /**
   * Each observer, with the webhook id its attempt used (none for held data: one is assigned), and
   * whether it refused the data for good (they are dead at once).
   */
  observers: { id: string; webhookId?: string; attempts: number; refused?: boolean }[];
}

/** What a consumer batch reports to a metric's (or a selector observer's) object, in one call. */
export interface BatchReport<Item = DatumRow> {
  attempts: AttemptReport[];
  owed: OwedData<Item>[];
  /** The turn the batch's plan gave it (see MetricPlan), handed back once its outcome is known. */
  turn?: number;
}

export type ObserverState = "active" | "paused" | "disabled";

/**
 * What a delivery counted as done proves. `acknowledged`: the observer took it (HTTP: it answered
 * 2xx; TCP: it accepted the connection and the bytes). `sent-unacknowledged`: UDP, which nothing
 * acknowledges: the datagrams left, and whether anything listens at the port cannot be known, so
 * such an observer is never shown as healthy.
 */
export type DeliveryAcknowledgement = "acknowledged" | "sent-unacknowledged";

export function acknowledgementOf(protocol: ObserverProtocol): DeliveryAcknowledgement {
  return protocol === "UDP" ? "sent-unacknowledged" : "acknowledged";
}

/** How deliveries to an observer go; timestamps are ISO 8601, null until the first of their kind. */
export interface DeliveryStatus {
  /** What `delivered` proves for the observer's protocol. */
  acknowledgement: DeliveryAcknowledgement;
  /** Data delivered. */
  delivered: number;
  /** Attempts that failed. */
  failed: number;
  /** Data tried for the whole retry schedule, kept for replay. */
  dead: number;
  /** Data dropped: dead past their retention, or over the backlog's cap. */
  dropped: number;
  /** Data points an OTLP receiver took but rejected (its partialSuccess); not sent again. */
  rejected: number;
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
