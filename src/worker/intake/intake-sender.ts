import { getOrCreate } from "../common/get-or-create";
import type { Datum } from "../vocabulary/datum";
import type { MessagesSend } from "./journal/journal-client";
import { encodeIntakeMessages, sendMessages } from "./queue-message";

/** The data of the requests that share one send, and how that send ended. */
interface Group {
  data: Datum[];
  outcome?: { ok: true } | { ok: false; error: unknown };
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
 * only once the send carrying its data has succeeded (with INTAKE_JOURNAL, the send includes the
 * journal's one write for all its messages); the request making a send keeps its context
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
   * The send of `data`, to be called, and called again if it fails. A larger request's data are
   * encoded at once, so that while the send waits only their messages are kept, not the data (and
   * whatever the data were read from): for a batch of thousands, that is most of the isolate's garbage.
   */
  sendOf(data: readonly Datum[], waitUntil: (promise: Promise<unknown>) => void): () => Promise<void> {
    if (data.length > maxSharedRequestData) {
      const messages = encodeIntakeMessages(data);
      return async () => {
        await this.sendToQueue(this.queue, messages);
      };
    }
    return () => this.sendShared(data, waitUntil);
  }

  private async sendShared(data: readonly Datum[], waitUntil: (promise: Promise<unknown>) => void): Promise<void> {
    const joined = this.gathering;
    if (joined) {
      joined.data.push(...data);
      if (!(await poll(() => joined.outcome !== undefined)))
        throw new Error("a shared intake send did not end in time");
      if (!joined.outcome!.ok) throw joined.outcome!.error;
      return;
    }
    const group: Group = { data: [...data] };
    if (this.sendsInFlight >= maxSendsInFlight) {
      this.gathering = group;
      await poll(() => this.sendsInFlight < maxSendsInFlight);
      this.gathering = undefined;
    }
    this.sendsInFlight += 1;
    const sending = this.sendToQueue(this.queue, encodeIntakeMessages(group.data));
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
 * which sends with `send` (journal/journal-client.ts: journaled or not, a setting of the isolate).
 */
export function intakeSender(queue: Queue, send: MessagesSend = sendMessages): IntakeSender {
  return getOrCreate(senders, queue, () => new IntakeSender(queue, send));
}
