import { once } from "node:events";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { text } from "node:stream/consumers";
import { afterEach, expect, it } from "vitest";
import { relayToken, startTestRelay } from "../../test/e2e/support/relay.ts";
import { eventually } from "../../test/e2e/support/service.ts";
import { startTcpReceiver, type TcpReceiver } from "../../test/e2e/support/socket-receivers.ts";
import type { TcpDelivery } from "../shared/relay-contract.ts";

// Far more than loopback socket buffers hold: a delivery that stays under way while the receiver does not read.
const large = "x".repeat(48 * 1024 * 1024);
const limits = { RELAY_MAX_BODY_BYTES: String(64 * 1024 * 1024), RELAY_MAX_QUEUED_BYTES: String(64 * 1024 * 1024) };

let receiver: TcpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function tcp(id: string, port: number, payload: string): TcpDelivery {
  return { id, protocol: "TCP", host: "127.0.0.1", port, payload };
}

/** POSTs deliveries through `agent`, so that requests can share one kept-alive connection. */
function postThrough(agent: Agent, url: string, deliveries: TcpDelivery[]) {
  return new Promise<{ status: number; connection: string | undefined; body: any }>((resolve, reject) => {
    const outgoing = request(`${url}/v1/deliveries`, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", authorization: `Bearer ${relayToken}` },
    });
    outgoing.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
        }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify({ deliveries }));
  });
}

it("stops taking requests but lets a delivery under way finish", async () => {
  const relay = await startTestRelay(limits);
  receiver = await startTcpReceiver();
  receiver.pauseReading();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pending = postThrough(agent, relay.url, [tcp("large", receiver.port, large)]);
  // Queued for the same kept-alive connection: it can only go out after shutdown began.
  const following = postThrough(agent, relay.url, [tcp("following", receiver.port, "late 1 1\n")]);
  await eventually(() => receiver!.connections === 1);

  const closed = relay.close();
  await expect(fetch(`${relay.url}/healthz`)).rejects.toThrow("fetch failed");
  receiver.resumeReading();

  expect(await pending).toEqual({
    status: 200,
    connection: "close",
    body: { results: [{ id: "large", ok: true, bytes: large.length }] },
  });
  await expect(following).rejects.toThrow("ECONNREFUSED");
  await closed;
  agent.destroy();
  await receiver.waitForText(large);
  expect(receiver.text()).toBe(large);
});

it("answers 503 to a request that was still arriving when shutdown began", async () => {
  const relay = await startTestRelay(limits);
  receiver = await startTcpReceiver();
  receiver.pauseReading();
  const pending = relay.deliver([tcp("large", receiver.port, large)]);
  await eventually(() => receiver!.connections === 1);
  const arriving = connect(relay.relay.port, "127.0.0.1");
  await once(arriving, "connect");
  arriving.write("POST /v1/deliveries HTTP/1.1\r\nhost: relay\r\ncontent-type: application/json\r\n");
  await new Promise((resolve) => setTimeout(resolve, 100));

  const closed = relay.close();
  const body = JSON.stringify({ deliveries: [tcp("late", receiver.port, "late 1 1\n")] });
  arriving.end(`authorization: Bearer ${relayToken}\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  const answer = (await text(arriving)).split("\r\n");
  receiver.resumeReading();
  await pending;
  await closed;

  expect(answer[0]).toBe("HTTP/1.1 503 Service Unavailable");
  expect(answer).toContain("connection: close");
  expect(JSON.parse(answer.at(-1)!)).toEqual({
    type: "urn:tower-edge:problem:unavailable",
    title: "Service unavailable",
    status: 503,
    detail: "The relay is shutting down.",
  });
  await receiver.waitForText(large);
  expect(receiver.text()).toBe(large);
});

it("reports deliveries still under way as failed once the shutdown timeout passes", async () => {
  const relay = await startTestRelay({ ...limits, RELAY_SHUTDOWN_TIMEOUT_MS: "300" });
  receiver = await startTcpReceiver();
  receiver.pauseReading();
  const pending = relay.deliver([tcp("large", receiver.port, large), tcp("queued", receiver.port, "after 1 1\n")]);
  await eventually(() => receiver!.connections === 1);

  const startedAt = Date.now();
  await relay.close();

  expect(Date.now() - startedAt).toBeLessThan(5_000);
  const failure = "the relay shut down before this delivery completed";
  expect(await pending).toEqual({
    status: 200,
    results: [
      { id: "large", ok: false, error: failure },
      { id: "queued", ok: false, error: failure },
    ],
  });
});
