import { describe, expect, it, vi } from "vitest";
import type { Datum } from "./datum";
import { intakeSender } from "./intake-sender";
import type { IntakeMessage } from "./queue-message";

const datum = (id: string): Datum => ({ id, metric: "m", timestamp: 1, value: 0.5, resourceId: "vm1" });

/** A queue whose sends stay in flight until the test ends them, each recording the datum ids it carried. */
function controlledQueue() {
  const sends: { ids: string[]; end: (error?: Error) => void }[] = [];
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  const inFlight = (bodies: unknown[]) =>
    new Promise<{ metadata: typeof metadata }>((resolve, reject) => {
      const ids = bodies.flatMap((body) =>
        (JSON.parse(String(body)) as IntakeMessage).metrics.flatMap(([, rows]) => rows.map(([id]) => id)),
      );
      sends.push({ ids, end: (error) => (error ? reject(error) : resolve({ metadata })) });
    });
  const queue = {
    send: (body: unknown) => inFlight([body]),
    sendBatch: (messages: Iterable<MessageSendRequest>) => inFlight([...messages].map((message) => message.body)),
    metrics: async () => metadata.metrics,
  } satisfies Queue;
  return { queue, sends };
}

const ignore = () => undefined;

describe("intake sender (group commit)", () => {
  it("sends at once when no send is in flight", async () => {
    const { queue, sends } = controlledQueue();
    const waitUntil = vi.fn();
    const sent = intakeSender(queue).send([datum("a")], waitUntil);
    expect(sends.map((send) => send.ids)).toEqual([["a"]]);
    expect(waitUntil).toHaveBeenCalledTimes(1);
    sends[0]!.end();
    await sent;
  });

  it("gathers the requests that arrive during a send into the next one, and answers each after its own send", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const waitUntil = vi.fn();
    const first = sender.send([datum("a")], waitUntil);
    const answered: string[] = [];
    const second = sender.send([datum("b")], waitUntil).then(() => answered.push("b"));
    const third = sender.send([datum("c1"), datum("c2")], waitUntil).then(() => answered.push("c"));
    expect(sends).toHaveLength(1);

    sends[0]!.end();
    await first;
    await vi.waitUntil(() => sends.length === 2);
    expect(sends[1]!.ids).toEqual(["b", "c1", "c2"]);
    expect(answered).toEqual([]);

    sends[1]!.end();
    await Promise.all([second, third]);
    expect(answered.sort()).toEqual(["b", "c"]);
    // One send per group, each kept alive by the request that made it.
    expect(waitUntil).toHaveBeenCalledTimes(2);
    expect(sends).toHaveLength(2);
  });

  it("fails every request of a group whose send fails, and the next group still goes out", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const first = sender.send([datum("a")], ignore);
    const second = sender.send([datum("b")], ignore);
    const third = sender.send([datum("c")], ignore);
    sends[0]!.end();
    await first;
    await vi.waitUntil(() => sends.length === 2);
    sends[1]!.end(new Error("queue down"));
    await expect(second).rejects.toThrow("queue down");
    await expect(third).rejects.toThrow("queue down");

    const fourth = sender.send([datum("d")], ignore);
    expect(sends.map((send) => send.ids)).toEqual([["a"], ["b", "c"], ["d"]]);
    sends[2]!.end();
    await fourth;
  });

  it("sends a larger request on its own, even while a send is in flight", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const first = sender.send([datum("a")], ignore);
    const large = Array.from({ length: 11 }, (_, index) => datum(`large${index}`));
    const alone = sender.send(large, ignore);
    expect(sends.map((send) => send.ids)).toEqual([["a"], large.map((each) => each.id)]);
    sends[1]!.end();
    await alone;
    sends[0]!.end();
    await first;
  });
});
