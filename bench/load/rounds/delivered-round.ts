import { cpuMeter, type ProcessGroup } from "../../runtime/process-accounting.ts";
import type { BackendReceiver } from "../receivers/backend-receiver.ts";
import { SampleTally } from "../receivers/sample-tally.ts";
import { type IntakeRequests, sendRequests } from "../requests/intake-requests.ts";
import { awaitArrivals, roundTimeoutSeconds } from "./awaited-arrivals.ts";
import { roundClients } from "./consumed-round.ts";

/** One round of a hop: its bodies posted once each, and what came out at the receiver. */
export interface DeliveredRound<K extends string> {
  accepted: number;
  refused: number;
  delivered: number;
  duplicates: number;
  unreadable: number;
  /** From the first post until the last request was answered. */
  postingSeconds: number;
  /** From the first post until the last sample arrived (or was given up on). */
  throughSeconds: number;
  /** CPU seconds of each process group over the same time. */
  cpu: Record<K, number>;
}

/** Where a round's requests go, what is to come out where, and whose CPU time counts. */
export interface RoundPlan<K extends string> {
  baseUrl: string;
  requests: IntakeRequests;
  receiver: BackendReceiver;
  groups: Record<K, ProcessGroup>;
}

/**
 * Posts every body of the plan's requests once, in a closed loop of a few clients, and waits for
 * their samples at the receiver (a fresh tally); each group's CPU time from the first post until
 * the last sample arrived.
 */
export async function runDeliveredRound<K extends string>(plan: RoundPlan<K>): Promise<DeliveredRound<K>> {
  const { baseUrl, requests, receiver, groups } = plan;
  const tally = new SampleTally();
  receiver.tally = tally;
  const meter = cpuMeter(groups);
  const started = Date.now();
  const load = await sendRequests(baseUrl, requests, {
    concurrency: roundClients,
    seconds: roundTimeoutSeconds,
    requests: requests.bodies.length,
  });
  const posted = Date.now();
  const accepted = (load.requests - load.errors) * requests.dataPerRequest;
  await awaitArrivals(tally, accepted);
  const cpu = meter();
  const through = tally.lastArrival > 0 ? tally.lastArrival : Date.now();
  return {
    accepted,
    refused: load.errors * requests.dataPerRequest,
    delivered: tally.distinct,
    duplicates: tally.duplicates,
    unreadable: tally.unreadable,
    postingSeconds: (posted - started) / 1000,
    throughSeconds: (Math.max(through, posted) - started) / 1000,
    cpu,
  };
}

/** Rounds of one case as one: counts, seconds and CPU times summed. */
export function combinedRounds<K extends string>(rounds: readonly DeliveredRound<K>[]): DeliveredRound<K> {
  const sum = (pick: (round: DeliveredRound<K>) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  const keys = Object.keys(rounds[0]?.cpu ?? {}) as K[];
  return {
    accepted: sum((round) => round.accepted),
    refused: sum((round) => round.refused),
    delivered: sum((round) => round.delivered),
    duplicates: sum((round) => round.duplicates),
    unreadable: sum((round) => round.unreadable),
    postingSeconds: sum((round) => round.postingSeconds),
    throughSeconds: sum((round) => round.throughSeconds),
    cpu: Object.fromEntries(keys.map((key) => [key, sum((round) => round.cpu[key])])) as Record<K, number>,
  };
}

/** Accepted samples the receiver never got. */
export const lostSamples = (round: DeliveredRound<string>) => Math.max(0, round.accepted - round.delivered);
/** Samples through the hop per second, from the first post to the last arrival. */
export const samplesPerSecond = (round: DeliveredRound<string>) => round.delivered / round.throughSeconds;
/** CPU µs of group `key` per sample accepted. */
export const microsPerSample = <K extends string>(round: DeliveredRound<K>, key: K) =>
  (round.cpu[key] * 1e6) / round.accepted;
