/**
 * Data posted to the service arrive in real servers people run: Graphite carbon (plaintext over
 * TCP and UDP, through the relay) and InfluxDB 1.x (line protocol over UDP through the relay, and
 * over HTTP `/write` straight from the Worker), each read back from the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatumInput, rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import {
  carbonAvailable,
  carbonPort,
  eventuallyInCarbon,
  eventuallyInInflux,
  influxAvailable,
  influxDatabase,
  influxUdpPort,
  influxUrl,
  uniqueRunId,
} from "./support/interop-servers.ts";
import { relayToken, startTestRelay, type TestRelay } from "./support/relay.ts";
import { type Service, startService } from "./support/service.ts";

const runId = uniqueRunId();
const nowMs = Math.floor(Date.now() / 1000) * 1000;
const nowSeconds = nowMs / 1000;

let relay: TestRelay | undefined;
let service: Service | undefined;

beforeAll(async () => {
  if (!carbonAvailable && !influxAvailable) return;
  relay = await startTestRelay();
  service = await startService({ RELAY_URL: relay.url, RELAY_TOKEN: relayToken });
});

afterAll(async () => {
  await service?.stop();
  await relay?.close();
});

async function observeAndPost(metric: string, observer: Record<string, unknown>, data: Omit<DatumInput, "metric">[]) {
  expect((await service!.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
  const registered = await service!.call("POST", `/v1/metrics/${metric}/observers`, observer);
  expect(registered.status).toBe(201);
  const posted = await service!.call(
    "POST",
    "/monitoringdata",
    rdfJsonBody(data.map((datum) => ({ ...datum, metric }))),
  );
  expect(posted.status).toBe(204);
}

describe.skipIf(!carbonAvailable)("service → relay → carbon-cache", () => {
  it.each(["TCP", "UDP"])("stores GRAPHITE data sent over %s", async (protocol) => {
    const metric = `${protocol.toLowerCase()}_cpu`;
    const resource = `interop.${runId}.svc`;
    await observeAndPost(
      metric,
      { format: "GRAPHITE", protocol, observerHost: "127.0.0.1", observerPort: carbonPort },
      [
        { id: "a", timestamp: nowMs, value: 12.5, resourceId: `${resource}_a` },
        { id: "b", timestamp: nowMs, value: 7.25, resourceId: `${resource}_b` },
      ],
    );
    await eventuallyInCarbon(`${resource}_a.${metric}`, 12.5, nowSeconds);
    await eventuallyInCarbon(`${resource}_b.${metric}`, 7.25, nowSeconds);
  });
});

describe.skipIf(!influxAvailable)("service → InfluxDB", () => {
  it("stores INFLUXDB data sent over UDP through the relay", async () => {
    const metric = `svc_udp_${runId}`;
    await observeAndPost(
      metric,
      { format: "INFLUXDB", protocol: "UDP", observerHost: "127.0.0.1", observerPort: influxUdpPort },
      [
        { id: "a", timestamp: nowMs - 1000, value: 1.5, resourceId: "vm 1" },
        { id: "b", timestamp: nowMs, value: 2.5, resourceId: "vm 1" },
      ],
    );
    const rows = await eventuallyInInflux(`SELECT "value", "resourceId" FROM "${metric}" ORDER BY time ASC`, 2);
    expect(rows).toEqual([
      [nowSeconds - 1, 1.5, "vm 1"],
      [nowSeconds, 2.5, "vm 1"],
    ]);
  });

  it("stores INFLUXDB data POSTed to its HTTP /write endpoint", async () => {
    const metric = `svc_http_${runId}`;
    const callbackUrl = `${influxUrl}/write?db=${influxDatabase}&precision=ns`;
    await observeAndPost(metric, { format: "INFLUXDB", callbackUrl }, [
      { id: "a", timestamp: nowMs, value: -3, resourceId: "vm,2" },
    ]);
    const rows = await eventuallyInInflux(`SELECT "value", "resourceId" FROM "${metric}"`, 1);
    expect(rows).toEqual([[nowSeconds, -3, "vm,2"]]);
  });
});
