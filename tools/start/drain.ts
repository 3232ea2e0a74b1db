import { setTimeout as sleep } from "node:timers/promises";

/** The Worker's answer on /_local/drain (src/local/drain.ts). */
interface DrainState {
  draining: boolean;
  /** Requests that may write (any method but GET, HEAD and OPTIONS) under way. */
  requestsInFlight: number;
  intakeMessagesInFlight: number;
  batchesInFlight: number;
}

/**
 * The Worker's drain state (GET), or the state once it was asked to drain (POST); undefined from a
 * Worker without the control route (404).
 */
async function readDrainState(url: string, token: string, method: "GET" | "POST"): Promise<DrainState | undefined> {
  const response = await fetch(`${url}/_local/drain`, { method, headers: { "x-local-control-token": token } });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`${method} /_local/drain answered ${response.status}`);
  return (await response.json()) as DrainState;
}

export interface DrainOptions {
  timeoutMs: number;
  pollIntervalMs: number;
  /** Where progress and problems are told. */
  log: (line: string) => void;
}

const inFlight = (state: DrainState) => state.requestsInFlight + state.intakeMessagesInFlight + state.batchesInFlight;

const describe = (state: DrainState) =>
  `${state.requestsInFlight} requests, ${state.intakeMessagesInFlight} intake messages and ` +
  `${state.batchesInFlight} delivery batches in flight`;

/**
 * Before the launcher stops the Worker: asks it to stop taking data (intake answers 503 from then
 * on) and waits until what it accepted has reached the observers or the durable backlog, or until
 * `timeoutMs` has passed. The route is the Worker's local control API, guarded by the token the
 * launcher gave it as LOCAL_CONTROL_TOKEN; a Worker without it (404) has nothing to wait for.
 * Never throws: stopping goes on whatever the Worker answers.
 */
export async function drainWorker(url: string, token: string, options: DrainOptions): Promise<void> {
  const call = (method: "GET" | "POST") => readDrainState(url, token, method);
  try {
    const deadline = Date.now() + options.timeoutMs;
    let state = await call("POST");
    if (state === undefined) return;
    if (inFlight(state) > 0) options.log(`launcher: draining the Worker: ${describe(state)}`);
    while (state !== undefined && inFlight(state) > 0) {
      if (Date.now() >= deadline) {
        options.log(`launcher: stopping the Worker after ${options.timeoutMs} ms of draining with ${describe(state)}`);
        return;
      }
      await sleep(options.pollIntervalMs);
      state = await call("GET");
    }
  } catch (error) {
    options.log(`launcher: could not drain the Worker: ${(error as Error).message}`);
  }
}
