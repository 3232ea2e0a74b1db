import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestRelay, type TestRelay } from "../../test/e2e/support/relay.ts";
import { eventually } from "../../test/e2e/support/service.ts";
import { startTcpReceiver, type TcpReceiver } from "../../test/e2e/support/socket-receivers.ts";
import { freePort } from "../../tools/testing/free-port.ts";
import type { TcpDelivery } from "../shared/relay-contract.ts";
import { DestinationPolicy } from "./destination-policy.ts";
import { TcpPool } from "./tcp-pool.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayWith(env: Record<string, string> = {}): Promise<TestRelay> {
  const relay = await startTestRelay(env);
  cleanups.push(() => relay.close());
  return relay;
}

async function receiver(port?: number): Promise<TcpReceiver> {
  const started = await startTcpReceiver(port);
  cleanups.push(() => started.close());
  return started;
}

function tcp(id: string, port: number, payload: string): TcpDelivery {
  return { id, protocol: "TCP", host: "127.0.0.1", port, payload };
}

describe("TCP deliveries", () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await relayWith();
  });

  it("writes each payload's exact bytes on one kept-open connection", async () => {
    const target = await receiver();
    const first = "web-1.cpu 0.5 1700000000\n";
    const second = "wëb-2.cpu_ü 1e-3 1700000001\n";

    expect(await relay.deliver([tcp("a", target.port, first)])).toEqual({
      status: 200,
      results: [{ id: "a", ok: true, bytes: Buffer.byteLength(first) }],
    });
    expect(await relay.deliver([tcp("b", target.port, second)])).toEqual({
      status: 200,
      results: [{ id: "b", ok: true, bytes: Buffer.byteLength(second) }],
    });

    await target.waitForText(first + second);
    expect(target.text()).toBe(first + second);
    expect(target.connections).toBe(1);
  });

  it("keeps the order of deliveries to one destination while serving others concurrently", async () => {
    const [left, right] = [await receiver(), await receiver()];
    const lines = (name: string) => Array.from({ length: 300 }, (_, index) => `${name}.${index} ${index} 1700000000\n`);
    const deliveries = lines("left").flatMap((line, index) => [
      tcp(`left-${index}`, left.port, line),
      tcp(`right-${index}`, right.port, lines("right")[index]!),
    ]);

    const { status, results } = await relay.deliver(deliveries);

    expect(status).toBe(200);
    expect(results.map((result) => result.id)).toEqual(deliveries.map((delivery) => delivery.id));
    expect(results.every((result) => result.ok)).toBe(true);
    await left.waitForText(lines("left").join(""));
    await right.waitForText(lines("right").join(""));
    expect(left.text()).toBe(lines("left").join(""));
    expect(right.text()).toBe(lines("right").join(""));
  });

  it("reports a destination that refuses the connection as that delivery's failure", async () => {
    const target = await receiver();
    const closedPort = await freePort();

    const { results } = await relay.deliver([tcp("down", closedPort, "x 1 1\n"), tcp("up", target.port, "y 2 2\n")]);

    expect(results).toEqual([
      { id: "down", ok: false, error: `connect ECONNREFUSED 127.0.0.1:${closedPort}` },
      { id: "up", ok: true, bytes: 6 },
    ]);
  });

  it("reconnects on the next delivery after the receiver restarted on the same port", async () => {
    const before = await receiver();
    const { port } = before;
    expect((await relay.deliver([tcp("1", port, "before 1 1\n")])).results[0]).toMatchObject({ ok: true });
    await before.waitForText("before 1 1\n");

    await before.close();
    expect((await relay.deliver([tcp("2", port, "while-down 2 2\n")])).results[0]).toEqual({
      id: "2",
      ok: false,
      error: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });

    const after = await receiver(port);
    expect((await relay.deliver([tcp("3", port, "after 3 3\n")])).results).toEqual([{ id: "3", ok: true, bytes: 10 }]);
    await after.waitForText("after 3 3\n");
    expect(after.text()).toBe("after 3 3\n");
  });

  it("notices a receiver that closed its end between deliveries, without a failed delivery", async () => {
    const before = await receiver();
    const { port } = before;
    expect((await relay.deliver([tcp("1", port, "first 1 1\n")])).results[0]).toMatchObject({ ok: true });
    await before.waitForText("first 1 1\n");

    // Restarted between two deliveries: the relay's pooled socket now has a dead peer.
    await before.close();
    const after = await receiver(port);

    expect((await relay.deliver([tcp("2", port, "second 2 2\n")])).results).toEqual([{ id: "2", ok: true, bytes: 11 }]);
    await after.waitForText("second 2 2\n");
    expect(after.text()).toBe("second 2 2\n");
  });
});

describe("TCP connection lifetime", () => {
  it("closes a connection left unused, and opens a new one for the next delivery", async () => {
    const relay = await relayWith({ RELAY_IDLE_TIMEOUT_MS: "200" });
    const target = await receiver();
    expect((await relay.deliver([tcp("1", target.port, "one 1 1\n")])).results[0]).toMatchObject({ ok: true });
    await eventually(() => target.connections === 1);

    await eventually(() => target.openConnections() === 0);
    expect((await relay.deliver([tcp("2", target.port, "two 2 2\n")])).results[0]).toMatchObject({ ok: true });

    await target.waitForText("one 1 1\ntwo 2 2\n");
    expect(target.text()).toBe("one 1 1\ntwo 2 2\n");
    expect(target.connections).toBe(2);
  });

  it("fails deliveries queued behind a failed attempt with its reason, and tries again for the next", async () => {
    const closedPort = await freePort();
    let lookups = 0;
    const policy = new DestinationPolicy({ allow: [], deny: [], allowPrivate: true }, async () => {
      lookups += 1;
      return [{ address: "127.0.0.1", family: 4 }];
    });
    const pool = new TcpPool(policy, {
      connectTimeoutMs: 1_000,
      writeTimeoutMs: 1_000,
      maxQueuedBytes: 1_024,
      idleTimeoutMs: 60_000,
    });
    cleanups.push(async () => pool.close(new Error("test over")));
    const refused = `connect ECONNREFUSED 127.0.0.1:${closedPort}`;

    const burst = await Promise.allSettled(
      Array.from({ length: 5 }, (_, index) => pool.deliver("receiver.test", closedPort, Buffer.from(`${index}\n`))),
    );

    expect(burst.map((outcome) => outcome.status === "rejected" && String(outcome.reason.message))).toEqual(
      Array(5).fill(refused),
    );
    expect(lookups).toBe(1);
    await expect(pool.deliver("receiver.test", closedPort, Buffer.from("later\n"))).rejects.toThrow(refused);
    expect(lookups).toBe(2);
  });
});

describe("TCP backpressure", () => {
  // More than loopback socket buffers take from a receiver that has not read yet (their autotuning
  // grows them only as the receiver reads), so a receiver that does not read keeps it queued.
  const large = "x".repeat(16 * 1024 * 1024);
  const limits = { RELAY_MAX_BODY_BYTES: String(24 * 1024 * 1024), RELAY_MAX_QUEUED_BYTES: String(20 * 1024 * 1024) };

  it("fails deliveries beyond the per-destination queue bound instead of buffering them", async () => {
    // The receiver reads nothing while the overflowing delivery is refused, which takes seconds on a
    // loaded machine: longer than the default write timeout must not fail the first one.
    const relay = await relayWith({ ...limits, RELAY_WRITE_TIMEOUT_MS: "120000" });
    const target = await receiver();
    target.pauseReading();

    const pending = relay.deliver([tcp("large", target.port, large)]);
    await eventually(() => target.connections === 1);
    const overflow = await relay.deliver([tcp("overflow", target.port, "y".repeat(8 * 1024 * 1024))]);

    expect(overflow.results).toEqual([
      {
        id: "overflow",
        ok: false,
        error: `${large.length} bytes are already waiting for 127.0.0.1:${target.port}; the limit is ${20 * 1024 * 1024}`,
      },
    ]);
    target.resumeReading();
    expect((await pending).results).toEqual([{ id: "large", ok: true, bytes: large.length }]);
    await target.waitForText(large);
    expect(target.text().length).toBe(large.length);
    expect(target.text()).toBe(large);
  });

  it("drops a connection whose receiver stops reading, and reconnects for the next delivery", async () => {
    const relay = await relayWith({ ...limits, RELAY_WRITE_TIMEOUT_MS: "300" });
    const target = await receiver();
    target.pauseReading();

    const { results } = await relay.deliver([tcp("stuck", target.port, large)]);

    expect(results).toEqual([
      { id: "stuck", ok: false, error: `writing to 127.0.0.1:${target.port} timed out after 300 ms` },
    ]);

    target.resumeReading();
    expect((await relay.deliver([tcp("next", target.port, "next 1 1\n")])).results).toEqual([
      { id: "next", ok: true, bytes: 9 },
    ]);
    // The first connection's unread bytes keep arriving meanwhile; the new delivery has a connection of its own.
    await eventually(() => target.textsByConnection()[1] === "next 1 1\n");
    expect(target.connections).toBe(2);
  });
});
