import { afterConsumer } from "../../runtime/usage.ts";
import type { BenchContext } from "../../sections/section.ts";
import { type IntakeRequests, sendRequests } from "../requests/intake-requests.ts";

/** A few agents sending at once, as the agents' section posts. */
export const roundClients = 4;
const postingTimeoutSeconds = 120;

/** Requests posted and taken in by the intake and the consumer, and the Worker's CPU time for it. */
export interface ConsumedRound {
  /** Data the service counted as accepted. */
  accepted: number;
  /** Requests answered with another status than expected, or not at all. */
  errors: number;
  /** Worker CPU seconds from the first request until the consumer was done with the round's data. */
  cpuSeconds: number;
}

/**
 * Posts the first `count` of `requests` (cycling through its bodies) in a closed loop of a few
 * clients, once the consumer is done with what came before, and counts the Worker's CPU time until
 * the consumer is done with them too (see afterConsumer).
 */
export async function runConsumedRound(
  { serviceUrl, processes }: BenchContext,
  requests: IntakeRequests,
  count: number,
): Promise<ConsumedRound> {
  const before = await afterConsumer(serviceUrl);
  const cpu = processes.worker.cpuSince();
  const load = await sendRequests(serviceUrl, requests, {
    concurrency: roundClients,
    seconds: postingTimeoutSeconds,
    requests: count,
  });
  const after = await afterConsumer(serviceUrl);
  return { accepted: after.dataAccepted - before.dataAccepted, errors: load.errors, cpuSeconds: cpu() };
}

/** Worker CPU µs per datum accepted over `rounds` together. */
export function cpuPerDatum(rounds: readonly ConsumedRound[]): number {
  const sum = (pick: (round: ConsumedRound) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  return (sum((round) => round.cpuSeconds) * 1e6) / sum((round) => round.accepted);
}
