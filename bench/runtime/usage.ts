import { setTimeout as sleep } from "node:timers/promises";
import type { usage } from "../../src/worker/common/usage.ts";

/*
 * The platform operations the Worker counts where it makes them (GET /v1/usage), and the wait for
 * its consumer that their counts make possible.
 */

export type Usage = typeof usage;
/** The usage's counts, without the time they count from and the breakdowns. */
export type UsageCount = Exclude<keyof Usage, "since" | "intake" | "durableObjectRequestsByBinding">;

/** How long the data accepted so far may take to go through the queue. */
const consumerTimeoutSeconds = 300;
const usagePollMs = 250;
/** Polls in a row that must find the counts unchanged before the consumer counts as done. */
const quietPolls = 3;
/** How long the counts must stay unchanged before the consumer counts as done. */
export const consumerQuietSeconds = (quietPolls * usagePollMs) / 1000;

const connectionReset = (error: unknown) =>
  error instanceof TypeError && (error.cause as { code?: string } | undefined)?.code === "ECONNRESET";

/**
 * The Worker's usage counts. Read again once if the connection was reset: a kept-alive connection
 * that idled while a section held this process's event loop may be closed by the Worker just as the
 * read goes out on it, and a read changes nothing.
 */
export async function readUsage(serviceUrl: string): Promise<Usage> {
  const read = async () => (await (await fetch(`${serviceUrl}/v1/usage`)).json()) as Usage;
  try {
    return await read();
  } catch (error) {
    if (!connectionReset(error)) throw error;
    return read();
  }
}

/**
 * Whether the consumer is done with everything queued so far: every message written has been read
 * (a retried one is read again) and no count moved since the previous reading.
 */
export function consumerDone(previous: Usage, current: Usage): boolean {
  return (
    current.queueMessagesRead >= current.queueMessagesWritten &&
    current.queueMessagesRead === previous.queueMessagesRead &&
    current.queueMessagesWritten === previous.queueMessagesWritten &&
    current.durableObjectRequests === previous.durableObjectRequests &&
    current.dataAccepted === previous.dataAccepted
  );
}

/** The usage counts once the consumer is done (see consumerDone) over `quietPolls` readings. */
export async function afterConsumer(serviceUrl: string): Promise<Usage> {
  const deadline = Date.now() + consumerTimeoutSeconds * 1000;
  let previous = await readUsage(serviceUrl);
  for (let quiet = 0; quiet < quietPolls; ) {
    if (Date.now() > deadline) throw new Error(`the consumer was not done after ${consumerTimeoutSeconds} s`);
    await sleep(usagePollMs);
    const current = await readUsage(serviceUrl);
    quiet = consumerDone(previous, current) ? quiet + 1 : 0;
    previous = current;
  }
  return previous;
}

/** Each of `counts` between two readings. */
export function countsBetween<K extends UsageCount>(
  before: Usage,
  after: Usage,
  counts: readonly K[],
): Record<K, number> {
  return Object.fromEntries(counts.map((count) => [count, after[count] - before[count]])) as Record<K, number>;
}
