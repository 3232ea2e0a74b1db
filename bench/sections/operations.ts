import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { runLoad } from "../load/closed-loop.ts";
import { rdfJsonBodies } from "../load/requests/rdf-json-bodies.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import { readUsage, type Usage } from "../runtime/usage.ts";
import type { BenchSection } from "./section.ts";

type Operation = Exclude<keyof Usage, "since" | "dataAccepted">;

const requests = 60;
const dataPerRequest = 1_000;

const operations: readonly [string, Operation][] = [
  ["Durable Object requests", "durableObjectRequests"],
  ["queue messages written", "queueMessagesWritten"],
  ["queue messages read", "queueMessagesRead"],
  ["outbound requests", "outboundRequests"],
  ["data written to backlogs", "backlogDataWritten"],
];

/** Targets per 1,000 data accepted in batched intake. */
const targets: Partial<Record<Operation, string>> = { durableObjectRequests: "≤ 0.1" };

/**
 * The same measurement on the release before the durable backlog (commit 76d1cd2, its
 * docs/BENCHMARKS.md), which retried through delayed queue messages and had no backlog.
 */
const previousRelease: Partial<Record<Operation, number>> = {
  durableObjectRequests: 0.05,
  queueMessagesWritten: 1,
  queueMessagesRead: 1,
  outboundRequests: 0.1,
};

async function observerStatus(serviceUrl: string, metric: string, observerId: string) {
  const response = await fetch(`${serviceUrl}/v1/metrics/${metric}/observers/${observerId}`);
  return ((await response.json()) as { status: { delivered: number; backlog: number } }).status;
}

/**
 * Posts `requests` × 1,000 data to a fresh metric with one HTTP observer at `callbackUrl` and
 * returns the Worker's operations per 1,000 accepted data, once `settled` says every datum reached
 * the observer or its backlog.
 */
async function operationsPer1000(
  serviceUrl: string,
  metric: string,
  callbackUrl: string,
  settled: (status: { delivered: number; backlog: number }, accepted: number) => boolean,
) {
  await fetch(`${serviceUrl}/v1/metrics/${metric}`, { method: "PUT" });
  const registered = await fetch(`${serviceUrl}/v1/metrics/${metric}/observers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ format: "GRAPHITE", callbackUrl }),
  });
  const observerId = ((await registered.json()) as { id: string }).id;
  const before = await readUsage(serviceUrl);
  const requestBodies = rdfJsonBodies(requests, dataPerRequest, metric);
  const posted = await runLoad({
    url: `${serviceUrl}/monitoringdata`,
    method: "POST",
    bodies: requestBodies,
    expectedStatus: 204,
    concurrency: 8,
    requests: requestBodies.length,
    seconds: 120,
  });
  const accepted = (posted.requests - posted.errors) * dataPerRequest;
  const deadline = Date.now() + 120_000;
  let statusReads = 1;
  while (!settled(await observerStatus(serviceUrl, metric, observerId), accepted) && Date.now() < deadline) {
    await sleep(200);
    statusReads += 1;
  }
  const after = await readUsage(serviceUrl);
  // Each of the bench's own status reads is one Durable Object request: not the data path's.
  after.durableObjectRequests -= statusReads;
  // Removing the observer removes its backlog: nothing of this measurement is left to retry.
  await fetch(`${serviceUrl}/v1/metrics/${metric}`, { method: "DELETE" });
  const perThousand = (key: Operation) => ((Number(after[key]) - Number(before[key])) * 1_000) / accepted;
  return { accepted, perThousand };
}

/**
 * Platform operations per 1,000 accepted data in batched intake (1,000-datum requests) to a metric
 * with one HTTP observer, from the Worker's own counters (GET /v1/usage) before and after: with a
 * healthy observer, and with one that is down, whose data all go to its durable backlog.
 */
export const platformOperationsSection: BenchSection = async ({ serviceUrl, targets: board, progress }) => {
  const observer = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => observer.listen(0, "127.0.0.1", resolve));
  const address = observer.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  progress("operations: a healthy observer");
  const healthy = await operationsPer1000(
    serviceUrl,
    "bench-operations-healthy",
    `http://127.0.0.1:${address.port}/`,
    (status, accepted) => status.delivered >= accepted,
  );
  await new Promise((resolve) => observer.close(resolve));
  progress("operations: an observer that is down");
  // The port the healthy observer had is closed now: connections are refused.
  const down = await operationsPer1000(
    serviceUrl,
    "bench-operations-down",
    `http://127.0.0.1:${address.port}/`,
    (status, accepted) => status.backlog >= accepted,
  );

  const rows = operations.map(([name, key]) => [
    name,
    fixed(healthy.perThousand(key), 3),
    fixed(down.perThousand(key), 3),
    previousRelease[key] === undefined ? "" : fixed(previousRelease[key], 3),
    targets[key] ?? "",
  ]);
  const messages = healthy.perThousand("queueMessagesWritten") + healthy.perThousand("queueMessagesRead");
  const objectRequests = healthy.perThousand("durableObjectRequests");
  board.record("platform-operations", {
    measured: `${fixed(messages, 3)} queue messages and ${fixed(objectRequests, 3)} Durable Object requests (healthy observer)`,
    met: messages <= 2 && objectRequests <= 0.1,
  });
  return [
    `Platform operations per 1,000 accepted data: ${fixed(healthy.accepted)} data in requests of ` +
      `${fixed(dataPerRequest)} to one metric with one HTTP observer, counted by the Worker itself ` +
      "(GET /v1/usage) before and after: with a healthy observer (once every datum reached it), and with an " +
      "observer that is down (once every datum is in its durable backlog). The last column is the healthy case " +
      "as measured on the release before the backlog (76d1cd2), which retried through delayed queue messages.",
    "",
    ...markdownTable(["operation", "healthy observer", "observer down", "healthy, previous release", "target"], rows),
    "",
    `Queue messages written and read together, healthy observer: **${fixed(messages, 3)}** per 1,000 data (target ≤ 2).`,
  ];
};
