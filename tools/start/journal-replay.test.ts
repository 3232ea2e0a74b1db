import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { replayIntakeJournal } from "./journal-replay.ts";

/* The launcher's side of the Worker's journal replay route, against a stand-in for the Worker. */

let server: Server | undefined;

afterEach(() => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined))));

/** A Worker that answers every request with `status` and `body`, recording what it was asked. */
async function fakeWorker(status: number, body: object): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers["x-local-control-token"]}`);
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

it("asks the Worker for a replay with the control token, and tells how many messages went again", async () => {
  const { url, seen } = await fakeWorker(200, { replayed: 3 });
  const log: string[] = [];
  await replayIntakeJournal(url, "control-token", (line) => log.push(line));
  expect(seen).toEqual(["POST /_local/journal/replay control-token"]);
  expect(log).toEqual(["launcher: sent again 3 intake messages not consumed before the last stop"]);
});

it("says nothing when the journal was empty", async () => {
  const { url } = await fakeWorker(200, { replayed: 0 });
  const log: string[] = [];
  await replayIntakeJournal(url, "control-token", (line) => log.push(line));
  expect(log).toEqual([]);
});

it("tells a failed replay without throwing", async () => {
  const { url } = await fakeWorker(500, {});
  const log: string[] = [];
  await replayIntakeJournal(url, "control-token", (line) => log.push(line));
  expect(log).toEqual([
    "launcher: could not replay the intake journal, it is kept for the next start: POST /_local/journal/replay answered 500",
  ]);
});

it("tells an unreachable Worker without throwing", async () => {
  const log: string[] = [];
  await replayIntakeJournal("http://127.0.0.1:1", "control-token", (line) => log.push(line));
  expect(log).toHaveLength(1);
  expect(log[0]).toMatch(/^launcher: could not replay the intake journal/);
});
