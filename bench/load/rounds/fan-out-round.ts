import type { ProcessRole } from "../../runtime/process-accounting.ts";
import { cpuMeter } from "../../runtime/process-accounting.ts";
import { afterConsumer } from "../../runtime/usage.ts";
import type { BenchContext } from "../../sections/section.ts";
import type { CountingReceiver } from "../receivers/counting-receiver.ts";
import { DatumTally } from "../receivers/datum-tally.ts";
import { type IntakeRequests, sendRequests } from "../requests/intake-requests.ts";
import { awaitArrivals, roundTimeoutSeconds } from "./awaited-arrivals.ts";
import { roundClients } from "./consumed-round.ts";

/** Requests whose data one observer at `receiver` gets, each datum told by its value (see DatumTally). */
export interface FanOutCase {
  name: string;
  requests: IntakeRequests;
  receiver: CountingReceiver;
}

/** What a case's rounds measured, together. */
export interface FanOutFigures {
  accepted: number;
  refused: number;
  delivered: number;
  duplicates: number;
  unreadable: number;
  /** Data received between the arrivals that passed 10 % and 90 % of each round's, and the seconds between. */
  steadyData: number;
  steadySeconds: number;
  /** From each round's first post until its last datum arrived (or was given up on). */
  caseSeconds: number;
  cpu: Record<ProcessRole, number>;
  /** The Worker's CPU seconds spent in the kernel, a part of `cpu.worker`. */
  workerKernel: number;
}

/**
 * Posts the case's first `requests` bodies once each in a closed loop, once the consumer is done with
 * what came before, and waits for their data at the receiver; CPU time from the first post until
 * the last datum arrived.
 */
export async function runFanOutRound(
  { serviceUrl, processes }: BenchContext,
  fanOutCase: FanOutCase,
  requests: number,
): Promise<FanOutFigures> {
  const { dataPerRequest } = fanOutCase.requests;
  await afterConsumer(serviceUrl);
  const tally = new DatumTally();
  fanOutCase.receiver.tally = tally;
  const meter = cpuMeter<ProcessRole>(processes);
  const workerKernel = processes.worker.cpuSince(true);
  const started = performance.now();
  const load = await sendRequests(serviceUrl, fanOutCase.requests, {
    concurrency: roundClients,
    seconds: roundTimeoutSeconds,
    requests,
  });
  const accepted = (load.requests - load.errors) * dataPerRequest;
  await awaitArrivals(tally, accepted);
  const cpu = meter();
  const steady = tally.steadySpan();
  return {
    accepted,
    refused: load.errors * dataPerRequest,
    delivered: tally.distinct,
    duplicates: tally.duplicates,
    unreadable: tally.unreadable,
    steadyData: steady.data,
    steadySeconds: steady.seconds,
    caseSeconds: (performance.now() - started) / 1000,
    cpu,
    workerKernel: workerKernel(),
  };
}

/** Rounds of one case as one: their counts, seconds and CPU times summed, the most memory. */
export function combinedRounds(rounds: readonly FanOutFigures[]): FanOutFigures {
  const sum = (pick: (figures: FanOutFigures) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  return {
    accepted: sum((figures) => figures.accepted),
    refused: sum((figures) => figures.refused),
    delivered: sum((figures) => figures.delivered),
    duplicates: sum((figures) => figures.duplicates),
    unreadable: sum((figures) => figures.unreadable),
    steadyData: sum((figures) => figures.steadyData),
    steadySeconds: sum((figures) => figures.steadySeconds),
    caseSeconds: sum((figures) => figures.caseSeconds),
    cpu: {
      worker: sum((figures) => figures.cpu.worker),
      relay: sum((figures) => figures.cpu.relay),
      bench: sum((figures) => figures.cpu.bench),
    },
    workerKernel: sum((figures) => figures.workerKernel),
  };
}

/** Accepted data the receiver never got. */
export const lost = (figures: FanOutFigures) => Math.max(0, figures.accepted - figures.delivered);
/** Delivered data/s in steady state (see DatumTally.steadySpan). */
export const steadyRate = (figures: FanOutFigures) => figures.steadyData / figures.steadySeconds;
/** Delivered data/s from the first post to the last arrival. */
export const wholeCaseRate = (figures: FanOutFigures) => figures.delivered / figures.caseSeconds;
/** Worker CPU µs per datum-delivery: one observer, so per datum accepted; taking the data in included. */
export const cpuPerDelivery = (figures: FanOutFigures) => (figures.cpu.worker * 1e6) / figures.accepted;
/** The part of cpuPerDelivery spent in the kernel. */
export const kernelPerDelivery = (figures: FanOutFigures) => (figures.workerKernel * 1e6) / figures.accepted;
