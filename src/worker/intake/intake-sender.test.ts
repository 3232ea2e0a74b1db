import { describe, expect, it, vi } from "vitest";
import type { Datum } from "../vocabulary/datum";
import { intakeSender, maxSendsInFlight, maxSharedRequestData } from "./intake-sender";
import { encodeIntakeMessages } from "./queue-message";
import { readIntakeMessage } from "./queue-message-bytes";

const datum = (id: string): Datum => ({ id, metric: "m", timestamp: 1, value: 0.5, resourceId: "vm1" });

/** A queue whose sends stay in flight until the test ends them, each recording its bodies and the datum ids they carried. */
function controlledQueue() {
  const sends: { ids: string[]; bodies: unknown[]; end: (error?: Error) => void }[] = [];
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  const inFlight = (bodies: unknown[]) =>
    new Promise<{ metadata: typeof metadata }>((resolve, reject) => {
      const ids = bodies.flatMap((body) =>
        readIntakeMessage(body).metrics.flatMap(([, rows]) => rows.map(([id]) => id)),
      );
      sends.push({ ids, bodies, end: (error) => (error ? reject(error) : resolve({ metadata })) });
    });
  const queue = {
    send: (body: unknown) => inFlight([body]),
    sendBatch: (messages: Iterable<MessageSendRequest>) => inFlight([...messages].map((message) => message.body)),
    metrics: async () => metadata.metrics,
  } satisfies Queue;
  return { queue, sends };
}

const ignore = () => undefined;

/** Starts `maxSendsInFlight` sends of one datum each (ids busy0…), which stay in flight until ended. */
function fillSendSlots(sender: ReturnType<typeof intakeSender>, waitUntil: (promise: Promise<unknown>) => void) {
  return Array.from({ length: maxSendsInFlight }, (_, index) => sender.sendOf([datum(`busy${index}`)], waitUntil)());
}

const busyIds = Array.from({ length: maxSendsInFlight }, (_, index) => [`busy${index}`]);

describe("intake sender (group commit)", () => {
  it("sends at once while fewer than the most sends are in flight", async () => {
    const { queue, sends } = controlledQueue();
    const waitUntil = vi.fn();
    const sent = fillSendSlots(intakeSender(queue), waitUntil);
    expect(sends.map((send) => send.ids)).toEqual(busyIds);
    expect(waitUntil).toHaveBeenCalledTimes(maxSendsInFlight);
    for (const send of sends) send.end();
    await Promise.all(sent);
  });

  it("gathers the requests that arrive while the sends are all in flight into the next one, and answers each after its own send", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const waitUntil = vi.fn();
    const busy = fillSendSlots(sender, waitUntil);
    const answered: string[] = [];
    const second = sender
      .sendOf([datum("b")], waitUntil)()
      .then(() => answered.push("b"));
    const third = sender
      .sendOf([datum("c1"), datum("c2")], waitUntil)()
      .then(() => answered.push("c"));
    expect(sends).toHaveLength(maxSendsInFlight);

    sends[0]!.end();
    await busy[0];
    await vi.waitUntil(() => sends.length === maxSendsInFlight + 1);
    expect(sends[maxSendsInFlight]!.ids).toEqual(["b", "c1", "c2"]);
    expect(answered).toEqual([]);

    sends[maxSendsInFlight]!.end();
    await Promise.all([second, third]);
    expect(answered.sort()).toEqual(["b", "c"]);
    // One send per group, each kept alive by the request that made it.
    expect(waitUntil).toHaveBeenCalledTimes(maxSendsInFlight + 1);
    for (const send of sends) send.end();
    await Promise.all(busy);
  });

  it("gathers requests that came by different chains of services into one send, each chain's data in messages of their own", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const busy = fillSendSlots(sender, ignore);
    const gathered = [
      sender.sendOf([datum("local1")], ignore)(),
      sender.sendOf([datum("edge1")], ignore, ["edge-1"])(),
      sender.sendOf([datum("local2")], ignore, [])(),
      sender.sendOf([datum("both")], ignore, ["edge-1", "edge-2"])(),
      sender.sendOf([datum("edge2")], ignore, ["edge-1"])(),
    ];

    sends[0]!.end();
    await vi.waitUntil(() => sends.length === maxSendsInFlight + 1);
    const messages = sends[maxSendsInFlight]!.bodies.map(readIntakeMessage);
    expect(messages.map(({ via, metrics }) => [via, metrics.flatMap(([, rows]) => rows.map(([id]) => id))])).toEqual([
      [undefined, ["local1", "local2"]],
      [["edge-1"], ["edge1", "edge2"]],
      [["edge-1", "edge-2"], ["both"]],
    ]);
    for (const send of sends) send.end();
    await Promise.all([...busy, ...gathered]);
  });

  it("fails every request of a group whose send fails, and the next group still goes out", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const busy = fillSendSlots(sender, ignore);
    const second = sender.sendOf([datum("b")], ignore)();
    const third = sender.sendOf([datum("c")], ignore)();
    sends[0]!.end();
    await busy[0];
    await vi.waitUntil(() => sends.length === maxSendsInFlight + 1);
    sends[maxSendsInFlight]!.end(new Error("queue down"));
    await expect(second).rejects.toThrow("queue down");
    await expect(third).rejects.toThrow("queue down");

    const fourth = sender.sendOf([datum("d")], ignore)();
    expect(sends.map((send) => send.ids)).toEqual([...busyIds, ["b", "c"], ["d"]]);
    for (const send of sends) send.end();
    await Promise.all([fourth, ...busy]);
  });

  it("sends a larger request on its own, even while the sends are all in flight", async () => {
    const { queue, sends } = controlledQueue();
    const sender = intakeSender(queue);
    const busy = fillSendSlots(sender, ignore);
    const large = Array.from({ length: maxSharedRequestData + 1 }, (_, index) => datum(`large${index}`));
    const alone = sender.sendOf(large, ignore)();
    expect(sends.map((send) => send.ids)).toEqual([...busyIds, large.map((each) => each.id)]);
    sends[maxSendsInFlight]!.end();
    await alone;
    for (const send of sends) send.end();
    await Promise.all(busy);
  });

  it("puts the messages on the queue with the send it was given", async () => {
    const { queue } = controlledQueue();
    const send = vi.fn(async (_queue: Queue, _messages: readonly Uint8Array[]) => undefined);
    const sender = intakeSender(queue, send);
    await sender.sendOf([datum("small")], ignore)();
    await sender.sendOf(
      Array.from({ length: maxSharedRequestData + 1 }, (_, index) => datum(`large${index}`)),
      ignore,
    )();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls.map(([to]) => to)).toEqual([queue, queue]);
    expect(send.mock.calls[0]![1]).toEqual(encodeIntakeMessages([datum("small")]));
  });

  it("sends a larger request's messages with its chain, encoded once, every time its send is called again", async () => {
    const { queue } = controlledQueue();
    const send = vi.fn(async (_queue: Queue, _messages: readonly Uint8Array[]) => undefined);
    const data = Array.from({ length: maxSharedRequestData + 1 }, (_, index) => datum(`again${index}`));
    const sendAgain = intakeSender(queue, send).sendOf(data, ignore, ["edge-1"]);
    expect(send).not.toHaveBeenCalled();
    await sendAgain();
    await sendAgain();
    expect(send.mock.calls.map(([, messages]) => messages)).toEqual([
      encodeIntakeMessages(data, ["edge-1"]),
      encodeIntakeMessages(data, ["edge-1"]),
    ]);
    expect(readIntakeMessage(send.mock.calls[0]![1][0]).via).toEqual(["edge-1"]);
    expect(send.mock.calls[0]![1]).toBe(send.mock.calls[1]![1]);
  });
});
