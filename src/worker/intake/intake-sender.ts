import { getOrCreate } from "../common/get-or-create";
import type { Datum } from "../vocabulary/datum";
import { encodeIntakeMessages, sendMessages } from "./queue-message";

/** How messages go to the intake queue. */
type MessagesSend = (queue: Queue, messages: readonly Uint8Array[]) => Promise<unknown>;

/**
 * The data of the requests that share one send, and how that send ended. A message names the one
 * chain of upstream services its data came by: data of different chains share the send, not a
 * message, so they are kept by chain (keyed by its ids joined by commas, which no id holds).
 */
interface Group {
  chains: Map<string, { via: readonly string[]; data: Datum[] }>;
  outcome?: { ok: true } | { ok: false; error: unknown };
}

function addData(group: Group, data: readonly Datum[], via: readonly string[]): void {
  const key = via.join(",");
  const chain = group.chains.get(key);
  if (chain) chain.data.push(...data);
  else group.chains.set(key, { via, data: [...data] });
}

/** A group's messages: those of each chain's data. */
function groupMessages(group: Group): Uint8Array[] {
  return [...group.chains.values()].flatMap(({ via, data }) => encodeIntakeMessages(data, via));
}

/**
 * Requests of at most this many data share sends. For them the send is much of the cost (see
 * docs/BENCHMARKS.md), and sharing bounds the messages a second that many such requests put on the
 * queue: the local queue keeps a timer per message, and past its runtime's limit of active timers
 * its sends fail and its dispatching can stop. A larger request already spreads its send over its
 * data, and gathering such requests would only make messages, and so the consumer's batches,
 * larger and slower to fill.
 */
export const maxSharedRequestData = 100;

/** How often a request looks whether a send it waits on, made by another request, has ended. */
const pollMs = 1;
/**
 * Sends of small requests the isolate keeps in flight before the next requests gather: more than
 * one keeps a request's wait short (under a closed loop of clients, the wait is what bounds their
 * rate), and gathering bounds the sends when requests come faster than sends end. Each send costs
 * the local queue's own isolate too, so fewer, larger sends carry more requests per second.
 */
export const maxSendsInFlight = 2;
/**
 * How long a request waits on another request's send. Past it, a request whose data went with that
 * send fails (the route then sends again: a duplicate at worst, which at-least-once allows), and
 * the next group goes out without waiting any longer for a send to end.
 */
const waitLimitMs = 10_000;

/**
 * Resolves once `ended()` holds, or false after `waitLimitMs`. The runtime does not let a request
 * await a promise another request settles (it cancels the waiting request as hung), so a request
 * waits on a timer of its own and reads the state the requests share (plain memory, which they may).
 */
async function poll(ended: () => boolean): Promise<boolean> {
  const deadline = Date.now() + waitLimitMs;
  while (!ended()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}

/**
 * Group commit for the intake queue. A queue send costs more than the rest of a small intake
 * request, so while `maxSendsInFlight` sends of this isolate are in flight, the data of the small
 * requests that arrive meanwhile gather, and the first of them sends them all once one has ended,
 * packed into as few messages as fit. Below that, and for a larger request, a request sends at once. Each request answers
 * only once the send carrying its data has succeeded; the request making a send keeps its context
 * alive with `waitUntil` until the send ends, so a client going away cannot cancel a send that
 * others wait on.
 */
class IntakeSender {
  private sendsInFlight = 0;
  private gathering: Group | undefined;

  constructor(
    private readonly queue: Queue,
    private readonly sendToQueue: MessagesSend,
  ) {}

  /**
   * The send of `data`, which came through the upstream services `via`, to be called, and called
   * again if it fails. A larger request's data are encoded at once, so that while the send waits
   * only their messages are kept, not the data (and whatever the data were read from): for a batch
   * of thousands, that is most of the isolate's garbage.
   */
  sendOf(
    data: readonly Datum[],
    waitUntil: (promise: Promise<unknown>) => void,
    via: readonly string[] = [],
  ): () => Promise<void> {
    if (data.length > maxSharedRequestData) {
      const messages = encodeIntakeMessages(data, via);
      return async () => {
        await this.sendToQueue(this.queue, messages);
      };
    }
    return () => this.sendShared(data, via, waitUntil);
  }

  private async sendShared(
    data: readonly Datum[],
    via: readonly string[],
    waitUntil: (promise: Promise<unknown>) => void,
  ): Promise<void> {
    const joined = this.gathering;
    if (joined) {
      addData(joined, data, via);
      if (!(await poll(() => joined.outcome !== undefined)))
        throw new Error("a shared intake send did not end in time");
      if (!joined.outcome!.ok) throw joined.outcome!.error;
      return;
    }
    const group: Group = { chains: new Map() };
    addData(group, data, via);
    if (this.sendsInFlight >= maxSendsInFlight) {
      this.gathering = group;
      await poll(() => this.sendsInFlight < maxSendsInFlight);
      this.gathering = undefined;
    }
    this.sendsInFlight += 1;
    const sending = this.sendToQueue(this.queue, groupMessages(group));
    waitUntil(sending.catch(() => undefined));
    try {
      await sending;
      group.outcome = { ok: true };
    } catch (error) {
      group.outcome = { ok: false, error };
      throw error;
    } finally {
      this.sendsInFlight -= 1;
    }
  }
}

const senders = new WeakMap<Queue, IntakeSender>();

/**
 * The isolate's sender for `queue` (a queue binding is one object for all the isolate's requests),
 * which sends with `send`.
 */
export function intakeSender(queue: Queue, send: MessagesSend = sendMessages): IntakeSender {
  return getOrCreate(senders, queue, () => new IntakeSender(queue, send));
}
