import { ApiError, problemResponse } from "../shared/problems";

/*
 * Draining, for a graceful stop of the local service: once draining, the service takes no more
 * requests that change something (503 with Retry-After), and the launcher waits until what was
 * accepted has been consumed. Counted per isolate, which is the whole local service: one isolate
 * serves it, its Durable Objects included.
 */
let draining = false;
let requestsInFlight = 0;
let batchesInFlight = 0;
let messagesWritten = 0;
/** Intake messages a consumer acknowledged: a retried message is not consumed yet. */
let messagesAcknowledged = 0;

/** How long a client is asked to wait before it sends again: the service is back within seconds. */
const retryAfterSeconds = 5;

/** Methods that only read: answered while draining, and not waited for. */
const readingMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export function startDraining(): void {
  draining = true;
}

export function intakeMessagesWritten(count: number): void {
  messagesWritten += count;
}

export function intakeMessagesAcknowledged(count: number): void {
  messagesAcknowledged += count;
}

/** What a drain still waits for: requests that may write under way, intake messages not acknowledged yet, and batches under way. */
export function drainProgress() {
  return {
    draining,
    requestsInFlight,
    intakeMessagesInFlight: messagesWritten - messagesAcknowledged,
    batchesInFlight,
  };
}

/** Runs `work` counted as one, so that a drain waits until none is under way. */
async function counted<T>(change: (by: number) => void, work: () => Promise<T>): Promise<T> {
  change(1);
  try {
    return await work();
  } finally {
    change(-1);
  }
}

/** Wraps a queue batch's consumption, so that a drain knows when none is under way. */
export function consumingBatch(work: () => Promise<void>): Promise<void> {
  return counted((by) => {
    batchesInFlight += by;
  }, work);
}

/**
 * Serves a request with `serve`: one that may write (any method but GET, HEAD and OPTIONS) is
 * refused once draining, and counted until answered otherwise, since its data may still be on
 * their way to the queue, unseen by the queue's counts.
 */
export function servingRequest(request: Request, serve: () => Promise<Response>): Promise<Response> {
  if (readingMethods.has(request.method)) return serve();
  if (draining) {
    const error = new ApiError("unavailable", "The service is stopping; send the request again shortly.", {
      headers: { "retry-after": String(retryAfterSeconds) },
    });
    return Promise.resolve(problemResponse(error));
  }
  return counted((by) => {
    requestsInFlight += by;
  }, serve);
}
