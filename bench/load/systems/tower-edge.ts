import type { ApiRoutes } from "../../../dist/worker-types/src/worker/app.d.ts";
import { apiClient } from "../../../tools/testing/api-client.ts";
import { rdfJsonBodyText } from "../../../tools/testing/monitoring-data.ts";
import { keptAliveAgent, send } from "../http-client.ts";
import { type ObserverEndpoint, receiverHost } from "../receivers/receivers.ts";
import { refusal, type SystemUnderTest } from "./system-under-test.ts";

/**
 * Observers in the receiver's format: INFLUXDB unless a case asks otherwise, so that one parser
 * reads what either system delivers.
 */
function observerBody(receiver: ObserverEndpoint) {
  const address =
    receiver.protocol === "HTTP"
      ? { callbackUrl: `http://${receiverHost}:${receiver.port}/` }
      : { observerHost: receiverHost, observerPort: receiver.port };
  return { format: receiver.format, protocol: receiver.protocol, ...address };
}

async function expectStatus(response: Promise<{ status: number }>, expected: number, what: string): Promise<void> {
  const { status } = await response;
  if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status}`);
}

/** The local service at `serviceUrl`, open (AUTH_DISABLED) and allowing loopback observers. */
export function towerEdge(serviceUrl: string): SystemUnderTest {
  const agent = keptAliveAgent(64);
  const metrics = apiClient<ApiRoutes>(`${serviceUrl}/v1`, fetch).metrics;
  // Data go out on the kept-alive connections of `agent`, as a load would send them; the typed
  // client only names the route.
  const intake = new URL(apiClient<ApiRoutes>(serviceUrl, fetch).monitoringdata.$url());
  const metricParam = (metric: string) => ({ id: encodeURIComponent(metric) });
  return {
    name: "tower-edge",
    slug: "tower-edge",
    protocols: ["HTTP", "TCP", "UDP"],
    async observe(metric, receivers) {
      const param = metricParam(metric);
      await expectStatus(metrics[":id"].$put({ param }), 201, `creating metric ${metric}`);
      for (const receiver of receivers) {
        const json = observerBody(receiver);
        await expectStatus(metrics[":id"].observers.$post({ param, json }), 201, "registering an observer");
      }
      // Deleting the metric removes its observers, so nothing keeps delivering to closed receivers.
      return () => expectStatus(metrics[":id"].$delete({ param }), 204, `deleting metric ${metric}`);
    },
    async post(metric, data) {
      const text = rdfJsonBodyText(
        data.map(({ resourceId, value, postedAt }) => ({
          id: `${resourceId}-${value}`,
          metric,
          timestamp: postedAt,
          value,
          resourceId,
        })),
      );
      // As bytes: the client would otherwise encode the text twice, once to count it and once to send it.
      return refusal(await send(agent, intake, { method: "POST", body: Buffer.from(text) }), 204);
    },
    async deliveryFailures(metric) {
      const param = metricParam(metric);
      const observers = await (await metrics[":id"].observers.$get({ param })).json();
      const reports = await Promise.all(
        observers.map(async ({ id }) =>
          (await metrics[":id"].observers[":oid"].$get({ param: { ...param, oid: id } })).json(),
        ),
      );
      return reports
        .filter(({ status }) => status.failed > 0)
        .map(
          ({ protocol, status }) =>
            `${protocol} observer: ${status.failed} failed, ${status.lost} lost, last error ${status.lastError}`,
        );
    },
    async close() {
      agent.destroy();
    },
  };
}
