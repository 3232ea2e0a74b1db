import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRelayConfig } from "../../src/relay/config.ts";
import { type RunningRelay, startRelay } from "../../src/relay/relay.ts";
import { freePort } from "../../tools/testing/free-port.ts";
import { type DatumInput, rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, type Service, startService } from "./support/service.ts";
import { startTcpReceiver, startUdpReceiver, type TcpReceiver, type UdpReceiver } from "./support/socket-receivers.ts";

const token = "relay-test-token-0123456789";
let relayPort: number;
let relay: RunningRelay | undefined;
let service: Service;
let tcp: TcpReceiver;
let udp: UdpReceiver;
let http: HttpReceiver;

const startTestRelay = async () =>
  startRelay(readRelayConfig({ RELAY_PORT: String(relayPort), RELAY_TOKEN: token, RELAY_ALLOW_PRIVATE: "true" }));

async function post(data: DatumInput[]): Promise<void> {
  expect((await service.call("POST", "/monitoringdata", rdfJsonBody(data))).status).toBe(204);
}

async function observe(body: Record<string, unknown>): Promise<string> {
  const response = await service.call("POST", "/v1/metrics/relayed/observers", body);
  expect(response.status).toBe(201);
  return response.body.id;
}

beforeAll(async () => {
  relayPort = await freePort();
  relay = await startTestRelay();
  [tcp, udp, http] = await Promise.all([startTcpReceiver(), startUdpReceiver(), startHttpReceiver()]);
  service = await startService({
    RELAY_URL: `http://127.0.0.1:${relayPort}`,
    RELAY_TOKEN: token,
    // Retries every 0.5 to 2 s, for about 25 s: longer than the relay is down in this test.
    RETRY_SCHEDULE: "0.5,1,2,2,2,2,2,2,2,2,2,2,2",
  });
  expect((await service.call("PUT", "/v1/metrics/relayed")).status).toBe(201);
});

afterAll(async () => {
  await service?.stop();
  await relay?.close();
  await Promise.all([tcp?.close(), udp?.close(), http?.close()]);
});

describe("TCP and UDP observers through the relay", () => {
  it("delivers exact bytes over TCP and UDP, keeps data while the relay is down, and duplicates nothing", async () => {
    const tcpId = await observe({
      format: "GRAPHITE",
      protocol: "TCP",
      observerHost: "127.0.0.1",
      observerPort: tcp.port,
    });
    await observe({ format: "INFLUXDB", protocol: "udp", observerHost: "127.0.0.1", observerPort: udp.port });
    await observe({ format: "GRAPHITE", callbackUrl: http.url });

    await post([
      { id: "a", metric: "relayed", timestamp: 1000, value: 1, resourceId: "vm 1" },
      { id: "b", metric: "relayed", timestamp: 2000, value: 2.5, resourceId: "vm2" },
    ]);
    await eventually(() => tcp.text().length > 0 && udp.datagrams.length > 0);
    expect(tcp.text()).toBe("vm_1.relayed 1 1\nvm2.relayed 2.5 2\n");
    expect(udp.datagrams).toEqual([
      "relayed,resourceId=vm\\ 1 value=1 1000000000\nrelayed,resourceId=vm2 value=2.5 2000000000\n",
    ]);

    await relay!.close();
    relay = undefined;
    await post([{ id: "c", metric: "relayed", timestamp: 3000, value: 3, resourceId: "vm3" }]);
    await eventually(() => http.received.length === 2);
    const whileDown = await eventually(async () => {
      const { body } = await service.call("GET", `/v1/metrics/relayed/observers/${tcpId}`);
      return body.status.failed > 0 ? body.status : undefined;
    });
    expect(whileDown.lastError).toMatch(/^relay unreachable/);
    // Kept in the observer's backlog, not lost.
    expect(whileDown).toMatchObject({ backlog: 1, dead: 0, dropped: 0 });

    relay = await startTestRelay();
    await eventually(() => tcp.text().includes("vm3.relayed 3 3\n"));
    await eventually(() => udp.datagrams.length === 2);
    expect(tcp.text()).toBe("vm_1.relayed 1 1\nvm2.relayed 2.5 2\nvm3.relayed 3 3\n");
    expect(udp.datagrams[1]).toBe("relayed,resourceId=vm3 value=3 3000000000\n");
    expect(http.received.map((request) => request.body)).toEqual([
      "vm_1.relayed 1 1\nvm2.relayed 2.5 2\n",
      "vm3.relayed 3 3\n",
    ]);
    const after = await eventually(async () => {
      const { body } = await service.call("GET", `/v1/metrics/relayed/observers/${tcpId}`);
      return body.status.backlog === 0 ? body.status : undefined;
    });
    expect(after).toMatchObject({ delivered: 3, dead: 0, dropped: 0 });
  });
});
