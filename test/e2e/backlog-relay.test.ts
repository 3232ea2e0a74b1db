/**
 * TCP deliveries through the relay use the same backlog as HTTP ones: while the relay is down the
 * data wait in the observer's backlog; once it is back, every datum reaches a real TCP receiver,
 * in order.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../tools/testing/free-port.ts";
import { relayToken, startTestRelay, type TestRelay } from "./support/relay.ts";
import { eventually, metricUnderTest, oneTo, type Service, startService } from "./support/service.ts";
import { startTcpReceiver, type TcpReceiver } from "./support/socket-receivers.ts";

let relayPort: number;
let relay: TestRelay | undefined;
let service: Service;
let tcp: TcpReceiver;

/** The relay, on the same port each time, so that the Worker's RELAY_URL finds it again. */
const startRelay = () => startTestRelay({ RELAY_PORT: String(relayPort) });

beforeAll(async () => {
  relayPort = await freePort();
  [relay, tcp] = await Promise.all([startRelay(), startTcpReceiver()]);
  service = await startService({
    RELAY_URL: `http://127.0.0.1:${relayPort}`,
    RELAY_TOKEN: relayToken,
    // Retries every half second for 10 s: longer than the relay is down here.
    RETRY_SCHEDULE: `0.5${",0.5".repeat(19)}`,
  });
});

afterAll(async () => {
  await service?.stop();
  await relay?.close();
  await tcp?.close();
});

/** What GRAPHITE sends for data first..last of metricUnderTest: `vm.<metric> n n` per datum. */
const graphiteLines = (metric: string, values: number[]) => values.map((n) => `vm.${metric} ${n} ${n}\n`).join("");

it("keeps the data of a TCP observer while the relay is down and delivers them all, in order, once it is back", async () => {
  const metric = metricUnderTest(service, "relayed_backlog");
  await metric.create();
  const id = await metric.observe({
    format: "GRAPHITE",
    protocol: "TCP",
    observerHost: "127.0.0.1",
    observerPort: tcp.port,
  });
  await metric.post(2);
  await tcp.waitForText(graphiteLines(metric.name, oneTo(2)));

  await relay!.close();
  relay = undefined;
  await metric.post(2);
  await eventually(async () => (await metric.status(id)).failed > 0, 10_000, { what: "a failed attempt" });
  await metric.post(2);
  await metric.post(2);
  const whileDown = await eventually(
    async () => {
      const current = await metric.status(id);
      return current.backlog === 6 ? current : undefined;
    },
    10_000,
    { what: "6 data in the backlog" },
  );
  expect(whileDown).toMatchObject({ delivered: 2, dead: 0, dropped: 0 });
  expect(whileDown.lastError).toMatch(/^relay unreachable/);
  expect(tcp.text()).toBe(graphiteLines(metric.name, oneTo(2)));

  relay = await startRelay();
  const expected = graphiteLines(metric.name, oneTo(8));
  await tcp.waitForText(expected, 15_000);
  expect(tcp.text()).toBe(expected);
  const status = await eventually(async () => {
    const current = await metric.status(id);
    return current.backlog === 0 ? current : undefined;
  }, 10_000);
  expect(status).toMatchObject({ delivered: 8, dead: 0, dropped: 0, backlog: 0 });
});
