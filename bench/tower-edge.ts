import { Agent } from "node:http";
import { rdfJsonBody } from "../test/support/monitoring-data.ts";
import { send } from "./http-client.ts";
import type { BenchDatum } from "./line-protocol.ts";
import { type LatencyReceiver, receiverHost } from "./receivers.ts";
import type { SystemUnderTest } from "./system-under-test.ts";

/** Observers in INFLUXDB format, so that one parser reads what either system delivers. */
function observerBody(receiver: LatencyReceiver) {
  const address =
    receiver.protocol === "HTTP"
      ? { callbackUrl: `http://${receiverHost}:${receiver.port}/` }
      : { observerHost: receiverHost, observerPort: receiver.port };
  return { format: "INFLUXDB", protocol: receiver.protocol, ...address };
}

async function expectStatus(response: Promise<Response>, expected: number, what: string): Promise<void> {
  const { status } = await response;
  if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status}`);
}

/** The service under `wrangler dev` at `serviceUrl`, open (AUTH_DISABLED) and allowing loopback observers. */
export function towerEdge(serviceUrl: string): SystemUnderTest {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const intake = new URL("/monitoringdata", serviceUrl);
  const json = (method: string, body?: unknown): RequestInit =>
    body === undefined ? { method } : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  return {
    name: "tower-edge",
    slug: "tower-edge",
    protocols: ["HTTP", "TCP", "UDP"],
    async observe(metric, receivers) {
      const metricUrl = `${serviceUrl}/v1/metrics/${encodeURIComponent(metric)}`;
      await expectStatus(fetch(metricUrl, json("PUT")), 201, `creating metric ${metric}`);
      for (const receiver of receivers) {
        await expectStatus(fetch(`${metricUrl}/observers`, json("POST", observerBody(receiver))), 201, "registering an observer");
      }
      // Deleting the metric removes its observers, so nothing keeps delivering to closed receivers.
      return () => expectStatus(fetch(metricUrl, json("DELETE")), 204, `deleting metric ${metric}`);
    },
    async post(metric, data: readonly BenchDatum[]) {
      const body = rdfJsonBody(
        data.map(({ resourceId, postedAt }) => ({ id: `d${resourceId}`, metric, timestamp: postedAt, value: postedAt, resourceId })),
      );
      return (await send(agent, intake, { method: "POST", body: JSON.stringify(body) })) === 204;
    },
    async close() {
      agent.destroy();
    },
  };
}
