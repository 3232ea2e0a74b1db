import { Agent, request } from "node:http";
import { rdfJsonBody } from "../test/support/monitoring-data.ts";
import { type LatencyReceiver, startLatencyReceiver } from "./graphite-receiver.ts";

export interface DeliveryBenchOptions {
  serviceUrl: string;
  metric: string;
  observers: number;
  /** Data posted per second, in requests of `dataPerRequest`. */
  rate: number;
  dataPerRequest: number;
  seconds: number;
  /** How long to wait for the last data after posting stopped. */
  drainSeconds: number;
}

export interface DeliveryBenchResult {
  observers: number;
  posted: number;
  rejected: number;
  /** Data that every observer received, per second from the first post to the last arrival. */
  deliveredPerSecond: number;
  p50: number;
  p99: number;
  /** Data an observer never received, summed over observers. */
  lost: number;
  duplicates: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function post(agent: Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on("error", () => resolve(0));
    outgoing.end(body);
  });
}

async function registerObservers(options: DeliveryBenchOptions, receivers: LatencyReceiver[]): Promise<void> {
  const base = `${options.serviceUrl}/v1/metrics/${encodeURIComponent(options.metric)}`;
  await fetch(base, { method: "PUT" });
  for (const receiver of receivers) {
    const response = await fetch(`${base}/observers`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ format: "GRAPHITE", callbackUrl: receiver.url }),
    });
    if (response.status !== 201) throw new Error(`observer registration failed: ${response.status}`);
  }
}

/**
 * Posts data at a steady rate (open loop: the schedule does not wait for answers) to a metric with
 * `observers` HTTP observers and measures, per datum and observer, the time from post to arrival.
 */
export async function runDeliveryBench(options: DeliveryBenchOptions): Promise<DeliveryBenchResult> {
  const receivers = await Promise.all(Array.from({ length: options.observers }, startLatencyReceiver));
  await registerObservers(options, receivers);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL("/monitoringdata", options.serviceUrl);
  const requestsPerSecond = options.rate / options.dataPerRequest;
  const totalRequests = Math.round(requestsPerSecond * options.seconds);
  let sequence = 0;
  let rejected = 0;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  const firstPost = Date.now();
  for (let sent = 0; sent < totalRequests; sent++) {
    const due = started + (sent / requestsPerSecond) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const now = Date.now();
    const data = Array.from({ length: options.dataPerRequest }, () => {
      const id = sequence++;
      return { id: `d${id}`, metric: options.metric, timestamp: now, value: now, resourceId: String(id) };
    });
    inFlight.push(
      post(agent, url, JSON.stringify(rdfJsonBody(data))).then((status) => {
        if (status !== 204) rejected += options.dataPerRequest;
      }),
    );
  }
  await Promise.all(inFlight);
  const posted = sequence - rejected;
  const drainDeadline = Date.now() + options.drainSeconds * 1000;
  while (Date.now() < drainDeadline && receivers.some((receiver) => receiver.distinct < posted)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  agent.destroy();
  await Promise.all(receivers.map((receiver) => receiver.close()));

  const latencies = receivers.flatMap((receiver) => receiver.latencies).sort((a, b) => a - b);
  const lastArrival = Math.max(...receivers.map((receiver) => receiver.lastArrival));
  const fullyDelivered = Math.min(...receivers.map((receiver) => receiver.distinct));
  return {
    observers: options.observers,
    posted,
    rejected,
    deliveredPerSecond: fullyDelivered / ((lastArrival - firstPost) / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    lost: receivers.reduce((sum, receiver) => sum + Math.max(0, posted - receiver.distinct), 0),
    duplicates: receivers.reduce((sum, receiver) => sum + receiver.duplicates, 0),
  };
}
