import type { ProcessRole } from "../runtime/process-accounting.ts";
import { keptAliveAgent, send } from "./http-client.ts";

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  /** Requests answered with another status than expected, or not answered at all. */
  errors: number;
}

export interface LoadOptions {
  url: string;
  method: "GET" | "POST";
  /** Bodies to send, cycled through; none for GET. */
  bodies?: readonly (string | Uint8Array)[];
  /** Builds the body of the request numbered `sent` when it goes out (e.g. to stamp it with the time); overrides `bodies`. */
  body?: (sent: number) => string;
  /** The bodies' content type; application/json by default. */
  contentType?: string;
  /** Further headers of every request, e.g. Content-Encoding. */
  headers?: Record<string, string>;
  expectedStatus: number;
  concurrency: number;
  seconds: number;
  /** Stop after this many requests, if the time is not up before. */
  requests?: number;
}

/** A closed-loop load: `concurrency` clients on kept-alive connections, each sending as soon as the last answer came. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = keptAliveAgent(options.concurrency);
  const target = new URL(options.url);
  const bodies = options.bodies ?? [];
  let sent = 0;
  let completed = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  const client = async () => {
    while (performance.now() < deadline && sent < (options.requests ?? Infinity)) {
      const number = sent++;
      const body = options.body ? options.body(number) : bodies.length > 0 ? bodies[number % bodies.length] : undefined;
      const { method, contentType, headers } = options;
      const outcome = await send(agent, target, { method, body, contentType, headers });
      completed += 1;
      if (outcome !== options.expectedStatus) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests: completed, seconds, perSecond: completed / seconds, errors };
}

/** Loads run one after another as one: their requests over their seconds together. */
export function combineLoads(loads: readonly LoadResult[]): LoadResult {
  const sum = (pick: (load: LoadResult) => number) => loads.reduce((total, load) => total + pick(load), 0);
  const requests = sum((load) => load.requests);
  const seconds = sum((load) => load.seconds);
  return { requests, seconds, perSecond: requests / seconds, errors: sum((load) => load.errors) };
}

/** A row's load and the CPU seconds each process used while it ran. */
export interface Measured {
  load: LoadResult;
  cpu: Record<ProcessRole, number>;
}

/** A row measured in rounds, as one. */
export function combined(rounds: readonly Measured[]): Measured {
  const sum = (pick: (round: Measured) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  return {
    load: combineLoads(rounds.map((round) => round.load)),
    cpu: {
      worker: sum((round) => round.cpu.worker),
      relay: sum((round) => round.cpu.relay),
      bench: sum((round) => round.cpu.bench),
    },
  };
}
