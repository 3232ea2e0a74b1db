import { createSocket } from "node:dgram";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { signWebhook } from "../../src/worker/delivery/transports/webhook-signature.ts";
import { type Receiver, receiveHttp, receiveTcp, receiveUdp } from "./receivers.ts";

const host = "127.0.0.1";
let receivers: Receiver[] = [];

afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

/** Lines printed, and a wait until `count` of them are. */
function printed() {
  const lines: string[] = [];
  const until = async (count: number) => {
    for (let waited = 0; lines.length < count && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return lines;
  };
  return { print: (line: string) => lines.push(line), until };
}

async function started(receiver: Promise<Receiver>): Promise<Receiver> {
  const ready = await receiver;
  receivers.push(ready);
  return ready;
}

const secret = "change-me-0123456789";
const body = '[{"resourceId":"frontend1","metric":"cpu","value":0.5,"timestamp":1}]';

async function post(port: number, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`http://${host}:${port}/tower`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return response.status;
}

describe("receiveHttp", () => {
  it("prints each delivery with its webhook-id and body, and answers 204", async () => {
    const { print, until } = printed();
    const { port } = await started(receiveHttp(0, host, print));
    expect(await post(port, { "webhook-id": "msg_1" })).toBe(204);
    const [head, printedBody] = await until(2);
    expect(head).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] HTTP POST \/tower {2}application\/json, /);
    expect(head).toMatch(new RegExp(`, ${body.length} characters {2}webhook-id msg_1$`));
    expect(printedBody).toBe(body);
  });

  it("checks signatures with the secret: valid, not valid, or missing", async () => {
    const { print, until } = printed();
    const { port } = await started(receiveHttp(0, host, print, secret));
    const timestamp = Math.floor(Date.now() / 1000);
    await post(port, await signWebhook(["another-secret-0123456789", secret], "msg_2", timestamp, body));
    await post(port, await signWebhook(["another-secret-0123456789"], "msg_3", timestamp, body));
    await post(port, { "webhook-id": "msg_4" });
    const heads = (await until(6)).filter((line) => line.includes(" HTTP "));
    expect(heads.map((line) => line.replace(/^.* webhook-id /, ""))).toEqual([
      "msg_2  signature valid",
      "msg_3  signature NOT VALID",
      "msg_4  NOT SIGNED",
    ]);
  });
});

describe("receiveTcp and receiveUdp", () => {
  it("print each line a TCP connection carries, the last one at its end", async () => {
    const { print, until } = printed();
    const { port } = await started(receiveTcp(0, host, print));
    const socket = connect(port, host);
    socket.write("frontend1.cpu 0.5 1409223851\nfrontend2.cp");
    socket.end("u 0.7 1409223851");
    const lines = await until(2);
    expect(lines.map((line) => line.replace(/^.* {2}/, ""))).toEqual([
      "frontend1.cpu 0.5 1409223851",
      "frontend2.cpu 0.7 1409223851",
    ]);
    expect(lines[0]).toMatch(/ TCP from 127\.0\.0\.1:\d+ {2}/);
  });

  it("print each line of a datagram", async () => {
    const { print, until } = printed();
    const { port } = await started(receiveUdp(0, host, print));
    const socket = createSocket("udp4");
    await new Promise((resolve) =>
      socket.send("cpu,resourceId=vm1 value=0.5 1\ncpu,resourceId=vm2 value=1 1\n", port, host, resolve),
    );
    socket.close();
    const lines = await until(2);
    expect(lines.map((line) => line.replace(/^.* {2}/, ""))).toEqual([
      "cpu,resourceId=vm1 value=0.5 1",
      "cpu,resourceId=vm2 value=1 1",
    ]);
  });
});
