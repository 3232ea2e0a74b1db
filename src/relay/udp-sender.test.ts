import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, type TestRelay } from "../../test/e2e/support/relay.ts";
import { startUdpReceiver, type UdpReceiver } from "../../test/e2e/support/socket-receivers.ts";
import type { UdpDelivery } from "../shared/relay-contract.ts";
import { packDatagrams } from "./udp-sender.ts";

const limit = 100;
let relay: TestRelay;
let receiver: UdpReceiver;
const openReceivers: UdpReceiver[] = [];

beforeAll(async () => {
  relay = await startTestRelay({ RELAY_MAX_DATAGRAM_BYTES: String(limit) });
});
afterAll(async () => {
  await relay.close();
});
afterEach(async () => {
  for (const open of openReceivers.splice(0)) await open.close();
});

async function startReceiver(type?: "udp4" | "udp6"): Promise<UdpReceiver> {
  receiver = await startUdpReceiver(type);
  openReceivers.push(receiver);
  return receiver;
}

function udp(
  id: string,
  records: string[],
  packing: UdpDelivery["packing"],
  host = "127.0.0.1",
  port = receiver.port,
): UdpDelivery {
  return { id, protocol: "UDP", host, port, records, packing };
}

/** A line of exactly `bytes` bytes including its newline. */
function lineOf(bytes: number, name: string): string {
  return `${name} ${"9".repeat(bytes - name.length - 2)}\n`;
}

describe("UDP line packing", () => {
  it("packs as many whole lines per datagram as fit, adding a missing newline", async () => {
    await startReceiver();
    const lines = Array.from({ length: 7 }, (_, index) => lineOf(30, `m${index}`));
    const records = lines.map((line, index) => (index % 2 === 0 ? line.trimEnd() : line));

    const { status, results } = await relay.deliver([udp("lines", records, "lines")]);

    expect(status).toBe(200);
    expect(results).toEqual([{ id: "lines", ok: true, bytes: 210 }]);
    await receiver.waitForDatagrams(3);
    expect(receiver.datagrams).toEqual([lines.slice(0, 3).join(""), lines.slice(3, 6).join(""), lines[6]]);
  });

  it("never sends a datagram over the limit, counting UTF-8 bytes", async () => {
    await startReceiver();
    // 99 bytes with its newline: alone in a datagram; a 1-byte line cannot join it.
    const wide = `${"é".repeat(49)}\n`;
    const records = [wide, "a", lineOf(60, "b"), lineOf(40, "c"), lineOf(41, "d")];

    const { results } = await relay.deliver([udp("utf8", records, "lines")]);

    expect(results).toEqual([{ id: "utf8", ok: true, bytes: 99 + 2 + 60 + 40 + 41 }]);
    await receiver.waitForDatagrams(3);
    expect(receiver.datagrams).toEqual([wide, `a\n${lineOf(60, "b")}`, lineOf(40, "c") + lineOf(41, "d")]);
    const sizes = receiver.datagrams.map((datagram) => Buffer.byteLength(datagram));
    expect(sizes).toEqual([99, 62, 81]);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(limit);
  });

  it("fails a delivery holding a line longer than the limit, sending none of it", async () => {
    await startReceiver();
    const tooLong = `${"é".repeat(50)}`;

    const { results } = await relay.deliver([
      udp("too-long", ["ok 1 1", tooLong], "lines"),
      udp("fine", ["fine 1 1"], "lines"),
    ]);

    expect(results).toEqual([
      { id: "too-long", ok: false, error: "record 1 is 101 bytes, larger than the 100-byte datagram limit" },
      { id: "fine", ok: true, bytes: 9 },
    ]);
    await receiver.waitForDatagrams(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.datagrams).toEqual(["fine 1 1\n"]);
  });
});

describe("UDP one record per datagram", () => {
  it("sends each record alone and unchanged", async () => {
    await startReceiver();
    const records = [
      JSON.stringify([{ resourceId: "vm-1", metric: "cpu", value: 0.5, timestamp: 1700000000000 }]),
      JSON.stringify([{ resourceId: "vm-2", metric: "cpu", value: 1, timestamp: 1700000000001 }]),
    ];

    const { results } = await relay.deliver([udp("json", records, "one-per-datagram")]);

    expect(results).toEqual([{ id: "json", ok: true, bytes: Buffer.byteLength(records.join("")) }]);
    await receiver.waitForDatagrams(2);
    expect(receiver.datagrams).toEqual(records);
  });

  it("fails a record that does not fit in one datagram", async () => {
    await startReceiver();
    const record = JSON.stringify({ padding: "p".repeat(limit) });

    const { results } = await relay.deliver([udp("json", ["{}", record], "one-per-datagram")]);

    expect(results).toEqual([
      { id: "json", ok: false, error: `record 1 is ${record.length} bytes, larger than the 100-byte datagram limit` },
    ]);
  });
});

describe("UDP destinations", () => {
  it("reaches an IPv6 receiver", async () => {
    await startReceiver("udp6");

    const { results } = await relay.deliver([udp("v6", ["v6 1 1"], "lines", "::1")]);

    expect(results).toEqual([{ id: "v6", ok: true, bytes: 7 }]);
    await receiver.waitForDatagrams(1);
    expect(receiver.datagrams).toEqual(["v6 1 1\n"]);
  });

  it("reports an unresolvable host name as that delivery's failure", async () => {
    await startReceiver();

    const { results } = await relay.deliver([udp("nowhere", ["x 1 1"], "lines", "no-such-host.invalid")]);

    expect(results).toEqual([{ id: "nowhere", ok: false, error: "cannot resolve no-such-host.invalid: ENOTFOUND" }]);
  });
});

describe("packDatagrams", () => {
  it("sends an empty record as an empty line, or as an empty datagram of its own", () => {
    expect(packDatagrams(["", ""], "lines", 10).map(String)).toEqual(["\n\n"]);
    expect(packDatagrams(["", ""], "one-per-datagram", 10).map(String)).toEqual(["", ""]);
  });

  it("fills a datagram up to exactly the limit", () => {
    expect(packDatagrams(["abcd", "efgh", "ij"], "lines", 10).map(String)).toEqual(["abcd\nefgh\n", "ij\n"]);
  });
});
