import type { Outcome } from "../http-client.ts";
import type { BenchDatum } from "../line-protocol.ts";
import type { ObserverEndpoint, Protocol } from "../receivers/receivers.ts";

/** A service that accepts monitoring data and copies them to observers: tower-edge, or InfluxDB for comparison. */
export interface SystemUnderTest {
  /** Shown in reports, e.g. "tower-edge" or "InfluxDB 1.6.7". */
  readonly name: string;
  /** A short lower-case name, part of the metric names the bench uses on it. */
  readonly slug: string;
  /** The observer protocols it delivers to. */
  readonly protocols: readonly Protocol[];
  /** Makes every receiver an observer of `metric`; resolves with what undoes that. */
  observe(metric: string, receivers: readonly ObserverEndpoint[]): Promise<() => Promise<void>>;
  /** Posts data of `metric` in one request; resolves with why they were refused, or undefined once accepted. */
  post(metric: string, data: readonly BenchDatum[]): Promise<string | undefined>;
  /** Failed deliveries to the observers of `metric` as the system reports them, where it does (for a loss's cause). */
  deliveryFailures?(metric: string): Promise<string[]>;
  close(): Promise<void>;
}

/** The refusal `post` reports for an outcome other than the `accepted` status. */
export function refusal(outcome: Outcome, accepted: number): string | undefined {
  if (outcome === accepted) return undefined;
  return typeof outcome === "string" ? `no answer (${outcome})` : `HTTP ${outcome}`;
}
