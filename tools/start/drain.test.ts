import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { drainWorker } from "./drain.ts";

/* The launcher's side of the Worker's local drain route, against a stand-in for the Worker. */

interface Seen {
  method: string;
  token: string | undefined;
}

let server: Server | undefined;

afterEach(() => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined))));

/** A Worker that answers each /_local/drain request with the next of `answers` (status, body). */
async function fakeWorker(answers: [number, object?][]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    seen.push({ method: request.method!, token: request.headers["x-local-control-token"] as string | undefined });
    const [status, body] = answers[Math.min(seen.length, answers.length) - 1]!;
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body ?? {}));
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const state = (intakeMessagesInFlight: number, batchesInFlight: number, requestsInFlight = 0) => ({
  draining: true,
  requestsInFlight,
  intakeMessagesInFlight,
  batchesInFlight,
});

const drain = (url: string, log: string[] = [], timeoutMs = 5_000) =>
  drainWorker(url, "control-token", { timeoutMs, pollIntervalMs: 10, log: (line) => log.push(line) });

it("asks the Worker to drain, then polls until nothing is in flight", async () => {
  const { url, seen } = await fakeWorker([
    [200, state(2, 1)],
    [200, state(1, 1)],
    [200, state(0, 0)],
  ]);

  await drain(url);

  expect(seen).toEqual([
    { method: "POST", token: "control-token" },
    { method: "GET", token: "control-token" },
    { method: "GET", token: "control-token" },
  ]);
});

it("waits for nothing when the Worker has no drain route", async () => {
  const { url, seen } = await fakeWorker([[404]]);
  const log: string[] = [];

  await drain(url, log);

  expect(seen).toHaveLength(1);
  expect(log).toEqual([]);
});

it("gives up after the timeout, saying what was left", async () => {
  const { url } = await fakeWorker([[200, state(3, 2)]]);
  const log: string[] = [];

  await drain(url, log, 100);

  expect(log.at(-1)).toBe(
    "launcher: stopping the Worker after 100 ms of draining with 0 requests, 3 intake messages and 2 delivery batches in flight",
  );
});

it("goes on stopping when the Worker answers with an error or not at all", async () => {
  const { url } = await fakeWorker([[403]]);
  const log: string[] = [];
  await drain(url, log);
  await drain("http://127.0.0.1:1", log);

  expect(log[0]).toBe("launcher: could not drain the Worker: POST /_local/drain answered 403");
  expect(log[1]).toMatch(/^launcher: could not drain the Worker: /);
});
