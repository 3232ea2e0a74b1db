import { createServer } from "node:http";
import type { usage } from "../src/worker/ops/usage.ts";
import { bodies } from "./intake.ts";
import { runLoad } from "./load.ts";
import { fixed, markdownTable } from "./markdown.ts";
import type { BenchSection } from "./section.ts";

type Usage = typeof usage;

const requests = 60;
const dataPerRequest = 1_000;

/** Targets of the performance issue, per 1,000 data accepted in batched intake. */
const targets: Partial<Record<keyof Usage, number>> = { durableObjectRequests: 0.5 };

async function readUsage(serviceUrl: string): Promise<Usage> {
  return (await (await fetch(`${serviceUrl}/v1/usage`)).json()) as Usage;
}

/**
 * Platform operations per 1,000 accepted data in batched intake (1,000-datum requests) to a metric
 * with one HTTP observer, from the Worker's own counters (GET /v1/usage) before and after, once
 * every datum has reached the observer.
 */
export const platformOperationsSection: BenchSection = async ({ serviceUrl, progress }) => {
  let received = 0;
  const observer = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received += body.split("\n").filter((line) => line.length > 0).length;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => observer.listen(0, "127.0.0.1", resolve));
  const address = observer.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  const metric = "bench-operations";
  await fetch(`${serviceUrl}/v1/metrics/${metric}`, { method: "PUT" });
  await fetch(`${serviceUrl}/v1/metrics/${metric}/observers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ format: "GRAPHITE", callbackUrl: `http://127.0.0.1:${address.port}/` }),
  });

  progress("operations: posting");
  const before = await readUsage(serviceUrl);
  const requestBodies = bodies(requests, dataPerRequest, metric);
  const posted = await runLoad({
    url: `${serviceUrl}/monitoringdata`,
    method: "POST",
    bodies: requestBodies,
    expectedStatus: 204,
    concurrency: 8,
    requests: requestBodies.length,
    seconds: 120,
  });
  const acceptedRequests = posted.requests - posted.errors;
  const accepted = acceptedRequests * dataPerRequest;
  progress("operations: waiting for every datum to reach the observer");
  const deadline = Date.now() + 120_000;
  while (received < accepted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  // The consumer records the outcome after the observer answered; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const after = await readUsage(serviceUrl);
  await new Promise((resolve) => observer.close(resolve));

  const perThousand = (key: keyof Usage) => ((Number(after[key]) - Number(before[key])) * 1_000) / accepted;
  const rows = (
    [
      ["Durable Object requests", "durableObjectRequests"],
      ["queue messages written", "queueMessagesWritten"],
      ["queue messages read", "queueMessagesRead"],
      ["outbound requests", "outboundRequests"],
    ] as const
  ).map(([name, key]) => [name, fixed(perThousand(key), 3), targets[key] === undefined ? "" : `≤ ${targets[key]}`]);
  const messages = perThousand("queueMessagesWritten") + perThousand("queueMessagesRead");
  return [
    `Platform operations per 1,000 accepted data: ${fixed(accepted)} data in ${acceptedRequests} requests of ` +
      `${fixed(dataPerRequest)} to one metric with one HTTP observer (${fixed(received)} data received), ` +
      "counted by the Worker itself (GET /v1/usage) before and after.",
    "",
    ...markdownTable(["operation", "per 1,000 data", "target"], rows),
    "",
    `Queue messages written and read together: **${fixed(messages, 3)}** per 1,000 data (target ≤ 2).`,
  ];
};
