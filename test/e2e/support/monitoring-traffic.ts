import { type DatumInput, rdfJsonBody } from "../../../tools/testing/monitoring-data.ts";

/** `count` data of `metric` whose ids are `${prefix}-0`, `${prefix}-1`, … */
export function numberedData(metric: string, prefix: string, count: number): DatumInput[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    metric,
    timestamp: 1_700_000_000_000 + index,
    value: index,
    resourceId: "r",
  }));
}

/** The intake's answer to one request: its status and Retry-After, or `error` when none came. */
export type PostOutcome = { status: number; retryAfter: string | null } | { error: string };

/** POSTs data to /monitoringdata; a connection that fails or is cut is an outcome, not an exception. */
export async function postData(serviceUrl: string, data: readonly DatumInput[]): Promise<PostOutcome> {
  try {
    const response = await fetch(`${serviceUrl}/monitoringdata`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(rdfJsonBody(data)),
    });
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.get("retry-after") };
  } catch (error) {
    return { error: error instanceof Error ? `${error.message} (${String(error.cause)})` : String(error) };
  }
}

export const accepted = (outcome: PostOutcome) => "status" in outcome && outcome.status === 204;

/** An observer's delivery counters (GET /v1/metrics/:id/observers/:oid). */
export interface DeliveryCounters {
  delivered: number;
  failed: number;
  dead: number;
  dropped: number;
  lost: number;
  backlog: number;
}

async function call(serviceUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${serviceUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined };
}

/** Creates `metric` with one RDF/JSON HTTP observer at `callbackUrl`; returns the observer's id. */
export async function observeMetric(serviceUrl: string, metric: string, callbackUrl: string): Promise<string> {
  const created = await call(serviceUrl, "PUT", `/v1/metrics/${encodeURIComponent(metric)}`);
  if (created.status !== 201 && created.status !== 200) throw new Error(`PUT metric answered ${created.status}`);
  const observer = await call(serviceUrl, "POST", `/v1/metrics/${encodeURIComponent(metric)}/observers`, {
    callbackUrl,
  });
  if (observer.status !== 201) throw new Error(`POST observer answered ${observer.status}`);
  return observer.body.id as string;
}

export async function deliveryCounters(
  serviceUrl: string,
  metric: string,
  observerId: string,
): Promise<DeliveryCounters> {
  const { status, body } = await call(
    serviceUrl,
    "GET",
    `/v1/metrics/${encodeURIComponent(metric)}/observers/${observerId}`,
  );
  if (status !== 200) throw new Error(`GET observer answered ${status}`);
  return body.status as DeliveryCounters;
}

/** One request of steady traffic: its data, when it was sent, and how and when it was answered. */
export interface TrafficRequest {
  ids: string[];
  sentAt: number;
  answeredAt?: number;
  outcome?: PostOutcome;
}

export interface TrafficOptions {
  metric: string;
  /** Datum ids are `${prefix}${request}-${index}`. */
  prefix: string;
  dataPerRequest: number;
  intervalMs: number;
  /** Sends for this long, */
  durationMs: number;
  /** or until this says to stop. */
  stop?: () => boolean;
}

/**
 * Posts a request every `intervalMs`, without waiting for the answers (open loop), for `durationMs`
 * or until `stop()`. Resolves with the requests sent once the last one was sent; their `outcome`
 * is filled in as answers come.
 */
export async function steadyTraffic(url: string, options: TrafficOptions): Promise<TrafficRequest[]> {
  const requests: TrafficRequest[] = [];
  const started = Date.now();
  for (let index = 0; index * options.intervalMs < options.durationMs && !options.stop?.(); index += 1) {
    const wait = started + index * options.intervalMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const data = numberedData(options.metric, `${options.prefix}${index}`, options.dataPerRequest);
    const request: TrafficRequest = { ids: data.map((datum) => datum.id), sentAt: Date.now() };
    requests.push(request);
    void postData(url, data).then((outcome) => {
      request.outcome = outcome;
      request.answeredAt = Date.now();
    });
  }
  return requests;
}
