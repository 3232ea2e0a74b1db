import { expect, it } from "vitest";
import { type MessageSocket, sessionOver } from "./inspector-session.ts";

/** A socket whose peer is the test: what the session sent, and a way to answer. */
function fakeSocket() {
  const sent: { id: number; method: string; params: unknown }[] = [];
  let deliver: (event: { data: unknown }) => void = () => undefined;
  const socket: MessageSocket = {
    send: (text) => sent.push(JSON.parse(text)),
    addEventListener: (_type, listener) => {
      deliver = listener;
    },
    close: () => undefined,
  };
  return { socket, sent, answer: (message: unknown) => deliver({ data: JSON.stringify(message) }) };
}

it("answers each call by its id, and rejects one the inspector refused", async () => {
  const { socket, sent, answer } = fakeSocket();
  const session = sessionOver(socket);
  const first = session.call<{ usedSize: number }>("Runtime.getHeapUsage");
  const second = session.call("HeapProfiler.collectGarbage", { x: 1 });
  expect(sent).toEqual([
    { id: 1, method: "Runtime.getHeapUsage", params: {} },
    { id: 2, method: "HeapProfiler.collectGarbage", params: { x: 1 } },
  ]);
  answer({ id: 2, error: { message: "not here" } });
  answer({ id: 1, result: { usedSize: 5 } });
  await expect(first).resolves.toEqual({ usedSize: 5 });
  await expect(second).rejects.toThrow("inspector: not here");
});

it("passes events to their listeners until they stop listening", () => {
  const { socket, answer } = fakeSocket();
  const session = sessionOver(socket);
  const chunks: unknown[] = [];
  const stop = session.onEvent((method, params) => chunks.push([method, params]));
  answer({ method: "HeapProfiler.addHeapSnapshotChunk", params: { chunk: "{" } });
  stop();
  answer({ method: "HeapProfiler.addHeapSnapshotChunk", params: { chunk: "}" } });
  expect(chunks).toEqual([["HeapProfiler.addHeapSnapshotChunk", { chunk: "{" }]]);
});
