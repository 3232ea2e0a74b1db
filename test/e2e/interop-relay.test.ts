/**
 * Delivers through the relay to real receivers: carbon-cache (Graphite plaintext, TCP and UDP) and
 * InfluxDB 1.x (line protocol over UDP), and reads the data back from each.
 * The servers come from .ci/install-interop-servers.sh; this file detects them by probing their
 * loopback ports (carbon TCP 2003 plus the whisper-fetch tool, InfluxDB HTTP 8086 /ping) and
 * skips the suites whose server is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  carbonAvailable,
  carbonPort,
  eventuallyInCarbon,
  eventuallyInInflux,
  influxAvailable,
  influxUdpPort,
  uniqueRunId,
} from "./support/interop-servers.ts";
import { startTestRelay, type TestRelay } from "./support/relay.ts";

const runId = uniqueRunId();
const nowSeconds = Math.floor(Date.now() / 1000);

let relay: TestRelay;
beforeAll(async () => {
  if (carbonAvailable || influxAvailable) relay = await startTestRelay();
});
afterAll(async () => {
  await relay?.close();
});

describe.skipIf(!carbonAvailable)("relay → carbon-cache (Graphite plaintext)", () => {
  it("delivers lines over TCP that carbon stores", async () => {
    const metric = `interop.${runId}.tcp.cpu`;

    const { results } = await relay.deliver([
      { id: "tcp", protocol: "TCP", host: "127.0.0.1", port: carbonPort, payload: `${metric} 42.5 ${nowSeconds}\n` },
    ]);

    expect(results).toEqual([{ id: "tcp", ok: true, bytes: expect.any(Number) }]);
    await eventuallyInCarbon(metric, 42.5, nowSeconds);
  });

  it("delivers packed lines over UDP that carbon stores, every one of them", async () => {
    const metrics = ["a", "b", "c"].map((name) => `interop.${runId}.udp.${name}`);
    const records = metrics.map((metric, index) => `${metric} ${index + 0.25} ${nowSeconds}`);

    const { results } = await relay.deliver([
      { id: "udp", protocol: "UDP", host: "127.0.0.1", port: carbonPort, records, packing: "lines" },
    ]);

    expect(results).toEqual([{ id: "udp", ok: true, bytes: expect.any(Number) }]);
    for (const [index, metric] of metrics.entries()) await eventuallyInCarbon(metric, index + 0.25, nowSeconds);
  });
});

describe.skipIf(!influxAvailable)("relay → InfluxDB (line protocol)", () => {
  it("delivers lines over UDP that a query reads back", async () => {
    const timestamps = [0, 1, 2].map((offset) => BigInt(nowSeconds - offset) * 1_000_000_000n);
    // The tag value "vm 1" carries an escaped space, as the line protocol requires.
    const records = timestamps.map(
      (ns, index) => `relay_interop,resourceId=${runId},host=vm\\ 1 value=${index + 0.5} ${ns}`,
    );

    const { results } = await relay.deliver([
      { id: "influx", protocol: "UDP", host: "127.0.0.1", port: influxUdpPort, records, packing: "lines" },
    ]);
    expect(results).toEqual([{ id: "influx", ok: true, bytes: expect.any(Number) }]);

    const rows = await eventuallyInInflux(
      `SELECT "value", "host" FROM "relay_interop" WHERE "resourceId" = '${runId}' ORDER BY time ASC`,
      3,
    );

    expect(rows).toEqual([
      [nowSeconds - 2, 2.5, "vm 1"],
      [nowSeconds - 1, 1.5, "vm 1"],
      [nowSeconds, 0.5, "vm 1"],
    ]);
  });
});
