import { Agent } from "node:http";
import { rdfJsonBody } from "../tools/testing/monitoring-data.ts";
import { send } from "./http-client.ts";
import { type LatencyReceiver, receiverHost } from "./receivers.ts";
import { refusal, type SystemUnderTest } from "./system-under-test.ts";

/** Observers in INFLUXDB format, so that one parser reads what either system delivers. */
function observerBody(receiver: LatencyReceiver) {
  const address =
    receiver.protocol === "HTTP"
      ? { callbackUrl: `http://${receiverHost}:${receiver.port}/` }
      : { observerHost: receiverHost, observerPort: receiver.port };
  return { format: "INFLUXDB", protocol: receiver.protocol, ...address };
}

interface ObserverReport {
  protocol: string;
  status: { failed: number; lost: number; lastError: string | null };
}

async function expectStatus(response: Promise<Response>, expected: number, what: string): Promise<void> {
  const { status } = await response;
  if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status}`);
}

/** The service under `wrangler dev` at `serviceUrl`, open (AUTH_DISABLED) and allowing loopback observers. */
export function towerEdge(serviceUrl: string): SystemUnderTest {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const intake = new URL("/monitoringdata", serviceUrl);
  const metricUrl = (metric: string) => `${serviceUrl}/v1/metrics/${encodeURIComponent(metric)}`;
  const json = (method: string, body?: unknown): RequestInit =>
    body === undefined ? { method } : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  return {
    name: "tower-edge",
    slug: "tower-edge",
    protocols: ["HTTP", "TCP", "UDP"],
    async observe(metric, receivers) {
      const url = metricUrl(metric);
      await expectStatus(fetch(url, json("PUT")), 201, `creating metric ${metric}`);
      for (const receiver of receivers) {
        await expectStatus(fetch(`${url}/observers`, json("POST", observerBody(receiver))), 201, "registering an observer");
      }
      // Deleting the metric removes its observers, so nothing keeps delivering to closed receivers.
      return () => expectStatus(fetch(url, json("DELETE")), 204, `deleting metric ${metric}`);
    },
    async post(metric, data) {
      const body = rdfJsonBody(
        data.map(({ resourceId, value, postedAt }) => ({ id: `${resourceId}-${value}`, metric, timestamp: postedAt, value, resourceId })),
      );
      return refusal(await send(agent, intake, { method: "POST", body: JSON.stringify(body) }), 204);
    },
    async deliveryFailures(metric) {
      const observers = (await (await fetch(`${metricUrl(metric)}/observers`)).json()) as { id: string }[];
      const reports = await Promise.all(
        observers.map(async ({ id }) => (await (await fetch(`${metricUrl(metric)}/observers/${id}`)).json()) as ObserverReport),
      );
      return reports
        .filter(({ status }) => status.failed > 0)
        .map(({ protocol, status }) => `${protocol} observer: ${status.failed} failed, ${status.lost} lost, last error ${status.lastError}`);
    },
    async close() {
      agent.destroy();
    },
  };
}
